#include <algorithm>

#include "winnow/error.hpp"
#include "winnow/shader_era/adaptive.hpp"
#include "winnow/shader_era/concat_probe.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::shader_era {

void executor::read_at_end(const view& v, std::uint64_t count) {
  m_at_end = v;
  m_at_end_count = count;
}
std::vector<std::uint32_t> executor::words_at_end() { return read(m_at_end, 0, m_at_end_count); }

void executor::begin_read(const view& v, std::uint64_t count) {
  m_begun = v; // a read begun by a run that failed before finish_read is replaced
  m_begun_count = count;
  m_read_begun = true;
}
std::vector<std::uint32_t> executor::finish_read() {
  if (!m_read_begun) throw error("winnow::shader_era: finish_read without begin_read");
  m_read_begun = false;
  return read_midway(m_begun, m_begun_count);
}

std::optional<bool> executor::matches(const plan&, const expected_output&, bool) { return std::nullopt; }

void executor::predicate_on(const view&, std::uint32_t) {
  throw error("winnow::shader_era: this executor cannot skip passes on the device (no predicates)");
}
void executor::predicate_off() {
  throw error("winnow::shader_era: this executor cannot skip passes on the device (no predicates)");
}

void executor::record_round(const view& choice, std::span<const std::size_t> passes,
                            std::span<const std::uint32_t> words) {
  if (passes.size() != words.size()) throw error("winnow::shader_era: record_round: a word for every pass");
  for (std::size_t j = 0; j < passes.size(); ++j) {
    predicate_on(choice, words[j]);
    record_in_round(passes[j], j == 0);
    predicate_off();
  }
}

bool runs_plans(const algorithm_info& info) {
  return (std::find(plan_apis.begin(), plan_apis.end(), info.api) != plan_apis.end() || info.api == "webgl") &&
         (info.name == "horn" || info.name == "jj" || info.name == "rlz" || info.name == "bt" ||
          info.name == "histopyramid");
}

plan_algorithm::plan_algorithm(algorithm_kind a, const std::function<std::unique_ptr<executor>()>& make_executor)
    : m_kind(a), m_exec(make_executor()) {}

void plan_algorithm::prepare(const workload& w, const param_set& p, const prepare_options& o) {
  m_w = &w;
  m_per_pass = o.per_pass;
  plan_params pp = plan_params_of(p);
  m_chosen.clear();
  if (pp.concat == concat_method::automatic) {
    pp.concat = probe_concat(*m_exec, p);
    m_chosen["concat"] = std::string(method_name(pp.concat));
  }
  m_plan = build_plan(m_kind, pp, {w.size(), w.removals.size(), w.removal_list, w.kept()}, m_exec->max_width(),
                      o.loop_check);
  m_padded.assign(m_plan.layout.size(), 0);
  std::copy(w.data.begin(), w.data.end(), m_padded.begin());
  m_exec->prepare(m_plan, p, {m_padded, w.removals, o.copies});
}

std::optional<std::string> plan_algorithm::refuses(std::uint64_t n) const {
  // The HistoPyramid's square base of side 2^levels holds at most 4^max_bound_levels elements (frame.cpp).
  if (m_kind == algorithm_kind::histopyramid && n > (std::uint64_t{1} << (2 * max_bound_levels)))
    return std::to_string(n) + " elements: the HistoPyramid binds at most " + std::to_string(max_bound_levels) +
           " levels, a base of " + std::to_string(std::uint64_t{1} << (2 * max_bound_levels)) + " elements";
  return layout_refusal(n, m_exec->max_width());
}

std::optional<std::string> layout_refusal(std::uint64_t n, std::uint64_t w) {
  // The stream is a 2D array of at most w × w words (layout_for says the same later).
  if (n <= w * w) return std::nullopt;
  return std::to_string(n) + " elements need more than " + std::to_string(w) + " × " + std::to_string(w) +
         " words, this device's limit (GL_MAX_TEXTURE_SIZE on GL, maxImageDimension2D or the buffer limit on Vulkan)";
}

void plan_algorithm::reset() {
  // The mark pass wrote zeros into the stream; put the unmarked stream back.
  if (m_plan.marks()) m_exec->write(view{m_plan.stream}, m_padded);
}

void plan_algorithm::run(timer& t) {
  m_exec->begin();
  phase_marker mark(m_per_pass);
  for (std::size_t i = 0; i < m_plan.passes.size(); ++i) {
    mark(t, m_plan.passes[i]);
    m_exec->record(i);
  }
  m_exec->end();
}

compaction_output plan_algorithm::result() { return read_output(*m_exec, m_plan); }

std::optional<bool> plan_algorithm::matches_on_device(const expected_output& expected, bool stable) {
  return shader_era::matches_on_device(*m_exec, m_plan, expected, stable);
}

std::optional<bool> matches_on_device(executor& x, const plan& pl, const expected_output& expected, bool stable) {
  if (pl.loop_check) return std::nullopt; // read_output's work
  return x.matches(pl, expected, stable);
}

std::vector<std::uint32_t> read_survivors(executor& x, const plan& pl, std::uint64_t count) {
  const view output{pl.output};
  if (!pl.output_in_stacks() || count == 0) return x.read(output, 0, count);
  const std::uint32_t log2w = *pl.stacks_log2_width();
  const std::vector<std::uint32_t> stored = x.read(output, 0, pl.output_words(count));
  std::vector<std::uint32_t> out(count);
  for (std::uint64_t t = 0; t < count; ++t) out[t] = stored[stack_position(t, log2w)];
  return out;
}

std::uint64_t survivor_count(executor& x, const plan& pl) {
  const auto word = [&](const view& v, std::uint64_t at) -> std::uint64_t { return x.read(v, at, 1).at(0); };
  const std::uint64_t v =
      pl.total ? word(*pl.total, 0) : word(pl.offsets, pl.blocks - 1) + word(pl.counts, pl.blocks - 1);
  if (v > pl.input.n)
    throw error("winnow::shader_era: " + std::string(name_of(pl.algorithm)) + " counted " + std::to_string(v) +
                " survivors of " + std::to_string(pl.input.n));
  return v;
}

compaction_output read_output(executor& x, const plan& pl) {
  const std::uint64_t v = survivor_count(x, pl);
  compaction_output out;
  out.values = read_survivors(x, pl, v);
  out.input_after = x.read(view{pl.stream}, 0, pl.input.n);
  if (pl.loop_check) {
    const auto trips = x.read(view{pl.trips}, 0, pl.layout.size());
    const std::uint32_t most = trips.empty() ? 0 : *std::max_element(trips.begin(), trips.end());
    // A loop cut by its cap writes bound + 1.
    if (most > pl.loop_bound)
      throw error("winnow::shader_era: " + std::string(name_of(pl.algorithm)) +
                  ": a search loop needed more than its proven bound of " + std::to_string(pl.loop_bound) + " trips");
  }
  return out;
}

std::vector<algorithm_entry> entries(const std::string& api, const std::vector<concat_method>& concat,
                                     const std::function<std::unique_ptr<executor>()>& make,
                                     const std::vector<param_axis>& executor_axes) {
  std::vector<algorithm_entry> out;
  for (const algorithm_kind a : {algorithm_kind::horn, algorithm_kind::jj, algorithm_kind::rlz, algorithm_kind::bt})
    out.push_back({.info = info(api, a, concat, executor_axes),
                   .make = [a, make] { return std::make_unique<plan_algorithm>(a, make); }});
  out.push_back(adaptive_entry(api, concat, make, executor_axes));
  return out;
}

algorithm_entry histopyramid_entry(const std::string& api, const std::function<std::unique_ptr<executor>()>& make,
                                   const std::vector<param_axis>& executor_axes) {
  return {.info = info(api, algorithm_kind::histopyramid, {}, executor_axes),
          .make = [make] { return std::make_unique<plan_algorithm>(algorithm_kind::histopyramid, make); }};
}

} // namespace winnow::shader_era
