// The concatenation on every plan API and by every method it offers (gl and vkfrag: lines and
// rectangles; vk: a copy and a search) writes block b's run to exactly [off_b, off_b + cnt_b) of the
// output: every start column and every length up to B, runs that cross into the next row included.
// Rasterizers differ at a line's ends (a line from (x0, r + ½) to (x1, r + ½) must cover x0 … x1 − 1
// and not x1), so this runs the real pass — concat.vert and concat.frag, or the compute shaders —
// through each API's executor (concat_probe.hpp, which concat=auto's start-up probe uses too). The
// probe's choice is tested on a host executor whose lines miss a run's last word.
#include <gtest/gtest.h>

#include <numeric>

#include "winnow/backends.hpp"
#include "winnow/shader_era/concat_probe.hpp"
#include "winnow/shader_era/executor.hpp"
#include "winnow/shader_era/frame.hpp"

namespace winnow {
namespace {

using namespace shader_era;

void check_runs(const algorithm_entry& e, const std::string& method, std::uint32_t B,
                const std::vector<std::uint32_t>& lengths) {
  auto a = e.make();
  auto* pa = dynamic_cast<plan_algorithm*>(a.get());
  ASSERT_NE(pa, nullptr) << e.info.full_name();
  const param_set params = resolve_params(e.info, {{"concat", method}, {"block", std::to_string(B)}});
  const auto wrong = concat_mismatch(pa->exec(), params, plan_params_of(params).concat, B, lengths);
  EXPECT_FALSE(wrong) << e.info.full_name() << " concat=" << method << ": " << wrong.value_or("");
}

TEST(concatenation, every_method_of_every_api_places_every_start_and_length_exactly) {
  const registry& reg = all_backends();
  bool ran = false;
  for (const std::string_view api : plan_apis) {
    if (reg.unavailable_reason(api)) continue;
    const algorithm_entry& e = reg.find(std::string(api) + "/horn");
    for (const auto& axis : e.info.axes) {
      if (axis.key != "concat") continue;
      for (const auto& method : axis.choices()) {
        if (method == "auto") continue; // a choice between the others, tested below
        std::vector<std::uint32_t> all(64);
        std::iota(all.begin(), all.end(), 1u);
        check_runs(e, method, 64, all);
        check_runs(e, method, 128, {1, 2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 95, 96, 97, 126, 127, 128});
        ran = true;
      }
    }
  }
  if (!ran) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
}

/// A host executor of the concatenation pass only, with plain arrays: rectangles place every run
/// exactly; lines place them exactly unless `short_lines`, when a run's last word is left out (a
/// rasterizer that stops a pixel early).
template <bool short_lines> class host_concat final : public executor {
public:
  std::uint32_t max_width() const override { return 4096; }
  void prepare(const plan& p, const param_set&, const case_words& input) override {
    m_plan = &p;
    m_words.assign(p.resources.size(), {});
    for (std::size_t r = 0; r < p.resources.size(); ++r) m_words[r].assign(p.resources[r].size(), 0);
    std::copy(input.stream.begin(), input.stream.end(), m_words.at(p.stream).begin());
  }
  void write(const view& v, std::span<const std::uint32_t> words) override {
    std::copy(words.begin(), words.end(), m_words.at(v.id).begin());
  }
  void begin() override {}
  void flush() override {}
  std::vector<std::uint32_t> read_midway(const view& v, std::uint64_t count) override { return read(v, 0, count); }
  void record(std::size_t i) override {
    const pass& ps = m_plan->passes.at(i);
    ASSERT_EQ(ps.kind, pass_kind::concat);
    const auto& off = m_words.at(ps.inputs[0].id);
    const auto& cnt = m_words.at(ps.inputs[1].id);
    const auto& runs = m_words.at(ps.inputs[2].id);
    auto& out = m_words.at(ps.output.id);
    const std::uint32_t B = m_plan->params.block;
    for (std::uint32_t b = 0; b < m_plan->blocks; ++b) {
      const std::uint32_t n = cnt[b] > 0 && short_lines && ps.method == concat_method::lines ? cnt[b] - 1 : cnt[b];
      for (std::uint32_t k = 0; k < n; ++k) out[off[b] + k] = runs[std::size_t{b} * B + k];
    }
    ++m_passes;
  }
  void end() override {}
  std::vector<std::uint32_t> read(const view& v, std::uint64_t first, std::uint64_t count) override {
    const auto& w = m_words.at(v.id);
    return {w.begin() + static_cast<std::ptrdiff_t>(first), w.begin() + static_cast<std::ptrdiff_t>(first + count)};
  }
  std::unique_ptr<timer> make_timer() override { return make_cpu_timer(); }
  void flush_caches() override {}
  std::size_t passes() const { return m_passes; }

private:
  const plan* m_plan = nullptr;
  std::vector<std::vector<std::uint32_t>> m_words;
  std::size_t m_passes = 0;
};

TEST(concatenation, auto_keeps_lines_where_they_are_exact_and_takes_rectangles_where_not) {
  const param_set none = resolve_params(algorithm_info{}, {});
  host_concat<false> exact;
  host_concat<true> short_by_one;
  EXPECT_FALSE(concat_mismatch(short_by_one, none, concat_method::rects, 64, {1, 2, 64}));
  const auto wrong = concat_mismatch(short_by_one, none, concat_method::lines, 64, {1, 2, 64});
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("words wrong at B = 64"), std::string::npos) << *wrong;
  EXPECT_EQ(probe_concat(exact, none), concat_method::lines);
  EXPECT_EQ(probe_concat(short_by_one, none), concat_method::rects);
  // Once per executor type and process: the second ask runs nothing.
  const std::size_t ran = short_by_one.passes();
  EXPECT_GT(ran, 0u);
  EXPECT_EQ(probe_concat(short_by_one, none), concat_method::rects);
  EXPECT_EQ(short_by_one.passes(), ran);
}

} // namespace
} // namespace winnow
