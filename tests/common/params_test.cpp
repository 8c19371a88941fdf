#include <gtest/gtest.h>

#include "winnow/algorithm.hpp"
#include "winnow/error.hpp"

namespace winnow {
namespace {

algorithm_info sample_info() {
  algorithm_info i;
  i.api = "gl";
  i.name = "horn";
  i.axes = {integer_axis("block", "block size", "128", {"32", "2048"}, 32, 2048, true),
            choice_axis("scan", "scan kind", "hillis", {"hillis", "blelloch"}),
            choice_axis("concat", "concatenation", "lines", {"lines"}, {"lines", "rects"})};
  return i;
}

std::string resolve_error(const params& p) {
  try {
    (void)resolve_params(sample_info(), p);
  } catch (const usage_error& e) { return e.what(); }
  ADD_FAILURE() << "no usage_error for " << to_string(p);
  return {};
}

TEST(params, defaults_fill_missing_axes) {
  EXPECT_EQ(resolve_params(sample_info(), {}).texts(),
            (params{{"block", "128"}, {"concat", "lines"}, {"scan", "hillis"}}));
  EXPECT_EQ(resolve_params(sample_info(), {{"block", "512"}}).texts(),
            (params{{"block", "512"}, {"concat", "lines"}, {"scan", "hillis"}}));
}

TEST(params, bad_values_name_key_and_accepted_values) {
  EXPECT_EQ(resolve_error({{"block", "100"}}),
            "gl/horn: block='100' is not accepted (block: a power of two in [32, 2048])");
  EXPECT_EQ(resolve_error({{"block", "4096"}}),
            "gl/horn: block='4096' is not accepted (block: a power of two in [32, 2048])");
  EXPECT_EQ(resolve_error({{"block", "12x"}}),
            "gl/horn: block='12x' is not accepted (block: a power of two in [32, 2048])");
  EXPECT_EQ(resolve_error({{"scan", "kogge"}}), "gl/horn: scan='kogge' is not accepted (scan: hillis | blelloch)");
  EXPECT_EQ(resolve_error({{"blok", "32"}}),
            "gl/horn: unknown parameter 'blok' (did you mean 'block'?) (accepted: block, scan, concat)");
}

TEST(params, accepted_values_may_go_beyond_the_sweep) {
  EXPECT_EQ(resolve_params(sample_info(), {{"concat", "rects"}}).text("concat"), "rects");
  EXPECT_EQ(resolve_error({{"concat", "points"}}), "gl/horn: concat='points' is not accepted (concat: lines | rects)");
}

TEST(params, an_integer_axis_may_accept_words_beside_its_integers) {
  // cuda/lookback's pause=auto: a probe chooses the number; a record keeps the word as given.
  algorithm_info i = sample_info();
  i.axes.push_back(integer_axis("pause", "ns", "auto", {"2000"}, 0, 1000000, false, {"auto"}));
  const param_set p = resolve_params(i, {});
  EXPECT_EQ(p.text("pause"), "auto");
  EXPECT_THROW((void)p.integer("pause"), error); // a word is not a number: the backend asks text() first
  EXPECT_EQ(resolve_params(i, {{"pause", "3000"}}).integer("pause"), 3000);
  try {
    (void)resolve_params(i, {{"pause", "soon"}});
    FAIL() << "no usage_error";
  } catch (const usage_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "gl/horn: pause='soon' is not accepted (pause: an integer in [0, 1000000] | auto)");
  }
}

TEST(params, sweep_is_the_product_of_the_axes_values) {
  const auto grid = sweep(sample_info());
  EXPECT_EQ(grid.size(), 4u); // block 32, 2048 × scan hillis, blelloch × concat lines
  EXPECT_EQ(grid.front(), (params{{"block", "32"}, {"concat", "lines"}, {"scan", "hillis"}}));
  EXPECT_EQ(sweep(sample_info(), {"scan", "concat"}).size(), 2u);
}

TEST(params, values_are_typed_by_the_one_parse) {
  enum class scan { hillis, blelloch };
  const param_set p = resolve_params(sample_info(), {{"block", "512"}, {"scan", "blelloch"}});
  EXPECT_EQ(p.integer("block"), 512);
  EXPECT_EQ(p.choice<scan>("scan", {{"hillis", scan::hillis}, {"blelloch", scan::blelloch}}), scan::blelloch);
  // Asking for what the axes do not have is the backend's bug, named as such.
  EXPECT_THROW((void)p.integer("scan"), error);
  EXPECT_THROW((void)p.text("threads"), error);
  try {
    (void)p.choice<scan>("scan", {{"hillis", scan::hillis}});
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()),
              "winnow: scan='blelloch' has no meaning in this backend (its axis and its code disagree)");
  }
  EXPECT_TRUE(resolve_params(sample_info(), {}).contains("concat"));
  EXPECT_FALSE(p.contains("threads"));
}

TEST(params, product_of_value_lists) {
  const auto grid = product({{"a", {"1", "2"}}, {"b", {"x"}}});
  ASSERT_EQ(grid.size(), 2u);
  EXPECT_EQ(grid[0], (params{{"a", "1"}, {"b", "x"}}));
  EXPECT_EQ(grid[1], (params{{"a", "2"}, {"b", "x"}}));
  EXPECT_EQ(product({}), std::vector<params>{params{}});
}

TEST(params, parse_param_needs_key_and_value) {
  EXPECT_EQ(parse_param("block=128"), (std::pair<std::string, std::string>{"block", "128"}));
  EXPECT_THROW((void)parse_param("block"), usage_error);
  EXPECT_THROW((void)parse_param("=3"), usage_error);
  EXPECT_THROW((void)parse_param("block="), usage_error);
}

} // namespace
} // namespace winnow
