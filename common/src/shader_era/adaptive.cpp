#include "winnow/shader_era/adaptive.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <typeindex>

#include "winnow/error.hpp"
#include "winnow/record.hpp"
#include "winnow/shader_era/adaptive_model.hpp"
#include "winnow/shader_era/calibrate.hpp"
#include "winnow/shader_era/concat_probe.hpp"
#include "winnow/shader_era/frame.hpp"
#include "winnow/shader_era/sampling.hpp"

namespace winnow::shader_era {
namespace {

/// What choice=auto weighs at prepare, at the case's n [ns].
struct weighing {
  double expected_regret_ns = 0; ///< the mean regret of the candidate choice=none runs
  double choosing_ns = 0;        ///< the sample, sum (and on the device, choice) passes, priced by the pass model
  double round_trip_ns = 0;      ///< the read back to the host, where the host would choose; 0 where the device does
};

/// The pass model's prices on one executor: an empty pass, and a byte moved by the copy pass; and
/// what a read back to the host within a run costs the device (choice=auto weighs it).
struct pass_prices {
  double pass_ns = 0, byte_ns = 0, round_trip_ns = 0;
};

/// Measured once per executor type in a process (as the concat probe is): 50 empty passes, 10
/// copies of 1M words, and 9 runs with and without a read. Re-prepares the executor, so it runs
/// before the adaptive plan is prepared.
pass_prices prices_of(executor& x, const param_set& params) {
  static std::mutex m;
  static std::map<std::type_index, pass_prices> found;
  const std::lock_guard lock(m);
  const std::type_index type(typeid(x));
  if (const auto it = found.find(type); it != found.end()) return it->second;
  pass_prices p;
  p.pass_ns = copy_pass_ns(x, params, 1, 50);
  constexpr std::uint32_t side = 1024;
  p.byte_ns = std::max(0.0, copy_pass_ns(x, params, side, 10) - p.pass_ns) / (8.0 * side * side);
  p.round_trip_ns = round_trip_ns(x, params, 9);
  return found[type] = p;
}

/// The pass model's candidates: each algorithm at blocks 32, 128, 512 and 2048, defaults otherwise
/// (the concatenation is the adaptive algorithm's own parameter, given to every candidate).
std::vector<adaptive_candidate> pass_candidates() {
  std::vector<adaptive_candidate> out;
  for (const algorithm_kind a : {algorithm_kind::horn, algorithm_kind::jj, algorithm_kind::rlz, algorithm_kind::bt})
    for (const char* block : {"32", "128", "512", "2048"}) out.push_back({.algorithm = a, .given = {{"block", block}}});
  return out;
}

/// A plan's resource ids moved by `offset` (it is appended to a merged plan after `offset` others).
view moved(view v, resource_id offset) { return {v.id + offset, v.level}; }

class adaptive_algorithm final : public algorithm {
public:
  adaptive_algorithm(std::string api, std::vector<concat_method> concat, std::vector<param_axis> executor_axes,
                     const std::function<std::unique_ptr<executor>()>& make)
      : m_api(std::move(api)), m_concat(std::move(concat)), m_axes(std::move(executor_axes)), m_exec(make()) {}

  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    const std::string& model = p.text("model");
    const std::string& where = p.text("choice");
    m_per_pass = o.per_pass;
    const std::string& schedule = p.text("schedule");
    const bool interleave = schedule == "interleaved" || (schedule == "auto" && m_exec->prefers_rounds());
    m_on_device = where == "device" || (where == "auto" && m_exec->prefers_predicates());
    m_speculate = where == "speculate";
    if (m_on_device && !m_exec->predicates())
      throw unavailable("winnow::shader_era: adaptive: choice=" + where +
                        " needs passes the device can skip (conditional "
                        "rendering: Vulkan's VK_EXT_conditional_rendering, desktop OpenGL's), which " +
                        m_api + " here lacks");
    std::vector<adaptive_candidate> candidates;
    m_prices.reset();
    // The prices also weigh the sample against what choosing can gain (choosing_ns() against
    // least_regret(), below); measured before the merged plan is prepared, since measuring
    // re-prepares the executor.
    const pass_prices prices = prices_of(*m_exec, p);
    double trained_n = 0; // the records' (model=PATH); their regrets are scaled from there to n
    if (model == "pass") {
      candidates = pass_candidates();
      m_prices = prices;
    } else {
      const adaptive_model& fitted = fitted_model(model, m_api, w.size());
      candidates = fitted.candidates;
      trained_n = double(fitted.trained_n);
    }
    const plan_case c{w.size(), w.removals.size(), w.removal_list, w.kept()};
    m_parts.clear();
    std::string refused;
    for (const adaptive_candidate& cand : candidates) {
      const algorithm_info inf = info(m_api, cand.algorithm, m_concat, m_axes);
      params given;
      // Every candidate concatenates as the adaptive algorithm is told, whatever a record's candidate
      // ran (model=PATH: the records' times are those of their own concatenation).
      params wanted = cand.given;
      wanted["concat"] = p.text("concat");
      for (const auto& [key, value] : wanted) // what this api's algorithm has; the executor's axes are ours
        if (std::any_of(inf.axes.begin(), inf.axes.end(), [&k = key](const param_axis& a) { return a.key == k; }) &&
            std::none_of(m_axes.begin(), m_axes.end(), [&k = key](const param_axis& a) { return a.key == k; }))
          given[key] = value;
      for (const param_axis& a : m_axes) given[a.key] = p.text(a.key);
      part pt;
      pt.label = std::string(name_of(cand.algorithm)) + " " + to_string(given);
      const auto refuse = [&](const error& e) {
        refused += (refused.empty() ? "" : "; ") + pt.label + ": " + e.what();
      };
      try {
        const param_set ps = resolve_params(inf, given);
        plan_params pp = plan_params_of(ps);
        if (pp.concat == concat_method::automatic) pp.concat = probe_concat(*m_exec, ps);
        pt.sub = build_plan(cand.algorithm, pp, c, m_exec->max_width(), o.loop_check);
      } catch (const unavailable& e) { // a block wider than the layout here
        refuse(e);
        continue;
      } catch (const usage_error& e) { // a record's value this build refuses
        refuse(e);
        continue;
      }
      pt.candidate = cand;
      pt.given = given;
      pt.given["algorithm"] = std::string(name_of(cand.algorithm));
      pt.coefficients = coefficients(pt, c.n);
      if (trained_n > 0) {
        pt.regret_ns = cand.worst_regret_ns * double(c.n) / trained_n;
        pt.mean_regret_ns = cand.mean_regret_ns * double(c.n) / trained_n;
      }
      m_parts.push_back(std::move(pt));
    }
    if (m_parts.empty())
      throw unavailable("winnow::shader_era: adaptive: no candidate can run this case (" + refused + ")");
    { // those the choice can never pick (the pass model: off the lower envelope of its lines) go
      std::vector<features> lines;
      for (const part& pt : m_parts) lines.push_back(pt.coefficients);
      const std::vector<bool> keep = ever_fastest(lines);
      std::vector<part> kept;
      for (std::size_t k = 0; k < m_parts.size(); ++k)
        if (keep[k]) kept.push_back(std::move(m_parts[k]));
      m_parts = std::move(kept);
    }
    if (trained_n == 0) envelope_regrets();
    // auto: not to sample where the candidate choice=none runs is expected to lose less than choosing
    // costs for sure — its mean regret against the sample and choice passes, and where the host
    // would choose, the round trip. The mean, not the worst: on GL on the H100, block 128's worst
    // regret over the records (274 µs at 4M, uniform p = 0.05) exceeds the round trip, but on the
    // 11 image cases it ran within 2.1 % of the best block, the host's choice 6-15 % over it
    // (docs/algorithms.md § Adaptive, "No choice").
    m_weighing.reset();
    if (where == "auto")
      m_weighing =
          weighing{least_regret().mean_regret_ns, choosing_ns(prices, c.n), m_on_device ? 0.0 : prices.round_trip_ns};
    m_settled = where == "none" ||
                (m_weighing && m_weighing->expected_regret_ns < m_weighing->choosing_ns + m_weighing->round_trip_ns);
    if (m_settled) {
      part settled = std::move(least_regret());
      m_parts.clear();
      m_parts.push_back(std::move(settled));
      m_on_device = m_speculate = false;
    }
    m_guess = static_cast<std::size_t>(&least_regret() - m_parts.data());
    if (m_speculate) ahead_of_choice(prices, c.n);
    if (m_on_device && m_parts.size() > predicate_words)
      throw unavailable("winnow::shader_era: adaptive: " + std::to_string(m_parts.size()) +
                        " candidates; the device skips by at most " + std::to_string(predicate_words) +
                        " (choice=host has no such limit)");
    merge(w.size());
    m_rounds.clear();
    if (m_on_device && interleave) m_rounds = rounds();
    m_padded.clear();
    for (part& pt : m_parts) pt.padded = padded(w, pt.sub.layout.size());
    m_exec->prepare(m_merged, p, {*m_parts.front().padded, w.removals, o.copies});
    for (std::size_t k = 1; k < m_parts.size(); ++k) {
      m_exec->write(view{m_parts[k].sub.stream}, *m_parts[k].padded);
      if (m_parts[k].sub.marks()) m_exec->write(view{m_parts[k].sub.removals}, w.removals);
    }
    if (!m_settled && m_on_device) {
      std::vector<features> coefficients;
      for (const part& pt : m_parts) coefficients.push_back(pt.coefficients);
      m_exec->write(m_choice.model, choice_model_words(coefficients, m_shape));
    }
    m_chosen_part = 0;
    m_resolved = true;
  }

  void reset() override {
    for (const part& pt : m_parts)
      if (pt.sub.marks()) m_exec->write(view{pt.sub.stream}, *pt.padded);
  }

  void run(timer& t) override {
    phase_marker mark(m_per_pass);
    // kick: hand the device the first pass at once and then every few, so that it does not idle
    // while the host records the chosen candidate's passes after the sample's round trip.
    const auto record = [&](std::size_t first, std::size_t last, bool kick, std::string_view owner) {
      for (std::size_t i = first; i < last; ++i) {
        mark(t, m_merged.passes[i], owner);
        m_exec->record(i);
        if (kick && (i - first) % 8 == 0 && i + 1 < last) m_exec->flush();
      }
    };
    m_exec->begin();
    record(0, m_sample_end, false, {});
    const auto count = static_cast<std::uint32_t>(m_parts.size());
    if (m_on_device && !m_rounds.empty()) { // round by round, one pass of each candidate
      // The predicate made ready (Vulkan's copy, GL's first query) within `choose`, as the sequential
      // schedule's first predicate_on does, so the two schedules' phases compare.
      m_exec->predicate_on(m_choice.choice, 0);
      m_exec->predicate_off();
      for (const round& r : m_rounds) {
        mark(t, m_merged.passes[r.passes.front()].phase, "round " + std::to_string(r.number), "every candidate");
        m_exec->record_round(m_choice.choice, r.passes, r.words);
      }
    } else if (m_on_device) { // every candidate recorded, each run only where its word of the choice is 1
      for (std::uint32_t k = 0; k < count; ++k) {
        m_exec->predicate_on(m_choice.choice, k);
        record(m_parts[k].first, m_parts[k].last, false, m_parts[k].label);
        m_exec->predicate_off();
      }
    }
    if (m_on_device) {
      // Read once the run and its timers are over (chosen_part()): a read here would sit inside the
      // last phase on GL, whose closing timestamp follows run().
      m_exec->read_at_end(m_choice.choice, count);
      m_exec->end();
      m_resolved = false;
    } else if (m_speculate) {
      // The sample's parts on their way back to the host while the device runs the guess's first
      // pass (the guess: the candidate of least worst regret, what choice=none runs; Binary-Tree's
      // first reduction takes longer than GL's round trip on the H100, a mark pass may not). It
      // writes only the guess's own resources, so it needs no predicate: where the host then chooses
      // another, it was time spent, no harm done — and the choice weighs that, counting the pass as
      // done. Only desktop GL reads in two halves; elsewhere finish_read waits for the pass too.
      m_exec->begin_read(m_sample_parts, 16 * std::uint64_t{m_shape.regions});
      const part& guess = m_parts[m_guess];
      record(guess.first, guess.first + 1, true, guess.label);
      m_exec->flush(); // the read and the pass handed over together
      m_chosen_part = choose_on_host(m_exec->finish_read());
      m_resolved = true;
      const part& chosen = m_parts[m_chosen_part];
      record(m_chosen_part == m_guess ? guess.first + 1 : chosen.first, chosen.last, true, chosen.label);
      m_exec->end();
    } else {
      if (!m_settled) {
        // The choice on the host, from the regions' parts: the round trip is in the phase `choose`.
        m_chosen_part = choose_on_host(m_exec->read_midway(m_sample_parts, 16 * std::uint64_t{m_shape.regions}));
      }
      m_resolved = true;
      const part& chosen = m_parts[m_chosen_part];
      record(chosen.first, chosen.last, !m_settled, chosen.label);
      m_exec->end();
    }
  }

  [[nodiscard]] compaction_output result() override { return read_output(*m_exec, m_parts.at(chosen_part()).sub); }
  [[nodiscard]] std::optional<bool> matches_on_device(const expected_output& expected, bool stable) override {
    return shader_era::matches_on_device(*m_exec, m_parts.at(chosen_part()).sub, expected, stable);
  }
  [[nodiscard]] traffic bytes_moved() const override {
    traffic t = m_parts.at(chosen_part()).moved;
    if (m_speculate && chosen_part() != m_guess) { // the guess's first pass ran too
      t.read += m_ahead_moved.read;
      t.written += m_ahead_moved.written;
      t.launches += m_ahead_moved.launches;
    }
    return t;
  }
  [[nodiscard]] std::unique_ptr<timer> make_timer() override { return m_exec->make_timer(); }
  void flush_caches() override { m_exec->flush_caches(); }
  /// The candidate the last run chose: its algorithm and parameters.
  [[nodiscard]] params chosen() const override {
    if (m_parts.empty()) return {};
    params out = m_parts.at(chosen_part()).given;
    out["choice"] = m_settled ? "none" : m_on_device ? "device" : m_speculate ? "speculate" : "host";
    if (m_speculate) out["guess"] = chosen_part() == m_guess ? "held" : "missed";
    out["schedule"] = m_rounds.empty() ? "sequential" : "interleaved";
    return out;
  }
  [[nodiscard]] std::optional<std::string> refuses(std::uint64_t n) const override {
    return layout_refusal(n, m_exec->max_width());
  }
  /// What choice=auto weighed, at the case's n [ns]: it settles (no sample) when expected_regret_ns <
  /// choosing_ns + round_trip_ns. Nothing under another choice, which weighs nothing.
  [[nodiscard]] params notes() const override {
    if (!m_weighing) return {};
    return {{"expected_regret_ns", num(m_weighing->expected_regret_ns)},
            {"choosing_ns", num(m_weighing->choosing_ns)},
            {"round_trip_ns", num(m_weighing->round_trip_ns)}};
  }

private:
  struct part {
    adaptive_candidate candidate;
    params given; ///< what chosen() reports
    std::string label;
    plan sub;                        ///< its own plan, resource ids as in the merged plan
    std::size_t first = 0, last = 0; ///< its passes in the merged plan
    traffic moved;                   ///< by a run that chooses it: the sample (and the first's marks), then its passes
    features coefficients{};         ///< its predicted time [ns] = features · coefficients (choose.glsl)
    const std::vector<std::uint32_t>* padded = nullptr; ///< its stream, padded to its layout
    double regret_ns = 0;      ///< the most it can lose against the best candidate on some stream of this n
    double mean_regret_ns = 0; ///< what it loses on average (over the training cases, or every density)
  };

  /// The pass model's regrets: each line's largest and mean distance above the lowest of them all,
  /// over the density p in [0, 1] (its coefficients have no p² or change-rate terms).
  void envelope_regrets() {
    for (part& pt : m_parts) pt.regret_ns = pt.mean_regret_ns = 0;
    constexpr int steps = 256;
    for (int i = 0; i <= steps; ++i) {
      const double q = double(i) / steps;
      const auto at = [&](const part& pt) { return pt.coefficients[0] + pt.coefficients[1] * q; };
      double lowest = at(m_parts.front());
      for (const part& pt : m_parts) lowest = std::min(lowest, at(pt));
      for (part& pt : m_parts) {
        pt.regret_ns = std::max(pt.regret_ns, at(pt) - lowest);
        pt.mean_regret_ns += (at(pt) - lowest) / (steps + 1);
      }
    }
  }

  /// choice=speculate: the time [ns] and words of the guess's first pass, which runs ahead of the
  /// choice. With records that time the pass's phase (model=PATH), the phase's mean time scaled to
  /// n, split among its passes as the pass model prices them; otherwise the pass model's price of
  /// the pass. Its words at the case's own survivors (the sampled density is not known yet). The
  /// first form replaced the pass model's share of the whole guess, which on GL priced Binary-Tree's
  /// first reduction at over 21 % of its time where it takes 12-15 % (docs/algorithms.md § Adaptive,
  /// "Speculating").
  /// Records of a per-pass bench name their phases "phase: pass" and are not matched: the pass
  /// model prices the pass then.
  void ahead_of_choice(const pass_prices& prices, std::uint64_t n) {
    const part& guess = m_parts[m_guess];
    // The first candidate's mark pass runs before the sample, outside its range in the merged plan.
    const std::size_t marks = m_guess == 0 && guess.sub.marks() ? 1 : 0;
    const auto priced = [&](const std::function<bool(const pass&)>& which, traffic* words) {
      plan some = guess.sub;
      some.passes.clear();
      for (std::size_t i = marks; i < guess.sub.passes.size(); ++i)
        if (which(guess.sub.passes[i])) some.passes.push_back(guess.sub.passes[i]);
      const traffic t = some.traffic_model();
      if (words) *words = t;
      return double(t.launches) * prices.pass_ns + double(t.read + t.written) * prices.byte_ns;
    };
    const pass& first = guess.sub.passes.at(marks);
    m_ahead_ns = priced([&](const pass& ps) { return &ps == &first; }, &m_ahead_moved);
    const double phase = priced([&](const pass& ps) { return ps.phase == first.phase; }, nullptr);
    if (const auto recorded = guess.candidate.phase_ns.find(first.phase);
        recorded != guess.candidate.phase_ns.end() && phase > 0)
      m_ahead_ns = recorded->second * double(n) * m_ahead_ns / phase;
  }

  /// The candidate that can lose least by running without a sample (the first of equals).
  part& least_regret() {
    return *std::min_element(m_parts.begin(), m_parts.end(),
                             [](const part& a, const part& b) { return a.regret_ns < b.regret_ns; });
  }

  /// The sample and sum passes (and where the device chooses, the choice pass) of a stream of n
  /// elements, priced as the pass model prices any pass: what choosing costs before any candidate
  /// runs (choice=auto weighs it against the mean regret). The choice on the host adds its round trip
  /// (pass_prices::round_trip_ns, weighed beside it).
  double choosing_ns(const pass_prices& prices, std::uint64_t n) const {
    plan scratch;
    scratch.resources.emplace_back(); // the stream the sample reads: its reads are priced per word written
    const sample_shape s = sample_shape_for(n);
    (void)add_choosing(scratch, view{0}, s);
    const traffic t = scratch.traffic_model();
    return double(t.launches) * prices.pass_ns + double(t.read + t.written) * prices.byte_ns;
  }

  /// The model as coefficients of the features [1, p, p², √c] (their first is 1): the records' fit times
  /// n; the pass model's passes and words moved, priced — words linear in the survivors p · n
  /// between those moved at none and at all.
  features coefficients(const part& pt, std::uint64_t n) const {
    features out{};
    if (!m_prices) {
      for (std::size_t i = 0; i < feature_count; ++i) out[i] = pt.candidate.beta[i] * double(n);
      return out;
    }
    plan at = pt.sub;
    at.input.kept = 0;
    const traffic none = at.traffic_model();
    at.input.kept = n;
    const traffic all = at.traffic_model();
    const double bytes_none = double(none.read + none.written), bytes_all = double(all.read + all.written);
    out[0] = double(pt.sub.passes.size()) * m_prices->pass_ns + bytes_none * m_prices->byte_ns;
    out[1] = (bytes_all - bytes_none) * m_prices->byte_ns;
    return out;
  }

  /// One pass of each of several candidates (record_round), passes[j] under word words[j].
  struct round {
    std::vector<std::size_t> passes;
    std::vector<std::uint32_t> words;
    std::size_t number = 1; ///< within its phase, from 1
  };

  /// The candidates' passes as rounds, phase by phase: the phase names in an order that keeps every
  /// candidate's own (a topological order of "comes after" between each candidate's consecutive
  /// phases, ties to the name seen first), then in each phase the r-th pass of every candidate that
  /// has one there. Empty where no such order exists (a candidate's phase comes back after another,
  /// or two candidates order two phases both ways): those run one candidate after another.
  std::vector<round> rounds() const {
    std::vector<std::string> names; // in order of first sight
    const auto id = [&](const std::string& name) {
      const auto it = std::find(names.begin(), names.end(), name);
      if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
      names.push_back(name);
      return names.size() - 1;
    };
    std::vector<std::vector<std::size_t>> sequence(m_parts.size()); // each candidate's phases, in its order
    for (std::size_t k = 0; k < m_parts.size(); ++k)
      for (std::size_t i = m_parts[k].first; i < m_parts[k].last; ++i) {
        const std::size_t ph = id(m_merged.passes[i].phase);
        if (sequence[k].empty() || sequence[k].back() != ph) {
          if (std::find(sequence[k].begin(), sequence[k].end(), ph) != sequence[k].end()) return {}; // it came back
          sequence[k].push_back(ph);
        }
      }
    std::vector<std::vector<bool>> after(names.size(),
                                         std::vector<bool>(names.size(), false)); // after[b][a]: b after a
    for (const auto& seq : sequence)
      for (std::size_t j = 1; j < seq.size(); ++j) after[seq[j]][seq[j - 1]] = true;
    std::vector<std::size_t> order;
    std::vector<bool> placed(names.size(), false);
    while (order.size() < names.size()) {
      std::size_t next = names.size();
      for (std::size_t b = 0; b < names.size() && next == names.size(); ++b) {
        if (placed[b]) continue;
        bool ready = true;
        for (std::size_t a = 0; a < names.size(); ++a) ready = ready && (placed[a] || !after[b][a]);
        if (ready) next = b;
      }
      if (next == names.size()) return {}; // a cycle: no order keeps them all
      placed[next] = true;
      order.push_back(next);
    }
    std::vector<round> out;
    for (const std::size_t ph : order) {
      std::vector<std::vector<std::size_t>> passes(m_parts.size());
      for (std::size_t k = 0; k < m_parts.size(); ++k)
        for (std::size_t i = m_parts[k].first; i < m_parts[k].last; ++i)
          if (m_merged.passes[i].phase == names[ph]) passes[k].push_back(i);
      for (std::size_t r = 0;; ++r) {
        round rd;
        rd.number = r + 1;
        for (std::size_t k = 0; k < passes.size(); ++k)
          if (r < passes[k].size()) {
            rd.passes.push_back(passes[k][r]);
            rd.words.push_back(static_cast<std::uint32_t>(k));
          }
        if (rd.passes.empty()) break;
        check_disjoint(rd);
        out.push_back(std::move(rd));
      }
    }
    return out;
  }

  /// What record_round needs of a round: no resource that one pass writes is read or written by
  /// another (one barrier orders the round; the fragment path puts every layout transition in it).
  void check_disjoint(const round& rd) const {
    for (const std::size_t i : rd.passes) {
      const pass& a = m_merged.passes[i];
      for (const std::size_t j : rd.passes) {
        const pass& b = m_merged.passes[j];
        if (i == j) continue;
        const auto touches = [&](resource_id id) {
          return b.output.id == id || (m_merged.loop_check && b.loop && b.trips == id) ||
                 std::any_of(b.inputs.begin(), b.inputs.end(), [&](const view& v) { return v.id == id; });
        };
        if (touches(a.output.id) || (m_merged.loop_check && a.loop && touches(a.trips)))
          throw error("winnow::shader_era: adaptive: '" + a.name + "' and '" + b.name +
                      "' of one round share what one writes");
      }
    }
  }

  /// What a choice adds to `pl` after `stream`'s passes: the sample, then on the device the regions'
  /// sums and the choice pass (phase "choose"), on the host the regions' parts, which it reads back.
  struct choosing_views {
    view parts;          ///< choice=host
    choice_views choice; ///< choice=device
  };
  choosing_views add_choosing(plan& pl, view stream, const sample_shape& s) const {
    const view sample = add_sample(pl, stream, s, m_exec->max_width());
    choosing_views out;
    if (m_on_device)
      out.choice = add_choice(pl, sample, s, static_cast<std::uint32_t>(m_parts.size()), m_exec->max_width());
    else out.parts = add_sample_parts(pl, sample, s, m_exec->max_width());
    return out;
  }

  /// The candidate predicted fastest from the regions' parts (add_sample_parts: 16 a region), as
  /// choose.glsl predicts on the device (the first of equals). The host sums the parts: on GL on the
  /// H100 the round trip of the sample's 4096 words themselves cost 20-30 µs more than a pass and 256
  /// words, and the second sum pass and the choice pass cost 24 µs (docs/algorithms.md § Adaptive, "Run").
  std::size_t choose_on_host(const std::vector<std::uint32_t>& parts) const {
    std::vector<std::uint32_t> sums(m_shape.regions, 0); // packed, as the parts: sampling.hpp's static_asserts
    for (std::size_t k = 0; k < parts.size(); ++k) sums.at(k / 16) += parts[k];
    const features f = features_of(estimate_from_sums(sums, m_shape));
    std::size_t best = 0;
    double best_ns = 0;
    for (std::size_t k = 0; k < m_parts.size(); ++k) {
      double ns = std::inner_product(f.begin(), f.end(), m_parts[k].coefficients.begin(), 0.0);
      if (m_speculate && k == m_guess) ns -= m_ahead_ns; // what is left of it
      if (k == 0 || ns < best_ns) best = k, best_ns = ns;
    }
    return best;
  }

  /// The candidate whose word of the choice is 1; anything else is a bug of choose.glsl or its inputs.
  std::size_t chosen_of(const std::vector<std::uint32_t>& words) const {
    std::size_t ones = 0, at = 0;
    for (std::size_t k = 0; k < words.size(); ++k)
      if (words[k] != 0) ++ones, at = k;
    if (ones != 1)
      throw error("winnow::shader_era: adaptive: the choice pass marked " + std::to_string(ones) + " of " +
                  std::to_string(words.size()) + " candidates");
    return at;
  }

  const std::vector<std::uint32_t>* padded(const workload& w, std::uint64_t size) {
    auto& v = m_padded[size];
    if (v.empty()) {
      v.assign(size, 0);
      std::copy(w.data.begin(), w.data.end(), v.begin());
    }
    return &v;
  }

  /// One plan of every candidate's resources and passes, in this order: the first candidate's mark
  /// pass (removal-list cases), the sample pass over its stream, the rest of its passes, then each
  /// other candidate's passes whole. Each part's own plan keeps its fields, its ids moved.
  void merge(std::uint64_t n) {
    m_merged = plan{};
    m_merged.input = m_parts.front().sub.input;
    m_merged.loop_check = std::any_of(m_parts.begin(), m_parts.end(), [](const part& pt) { return pt.sub.loop_check; });
    m_shape = sample_shape_for(n);
    for (part& pt : m_parts) {
      plan& sub = pt.sub;
      const auto offset = static_cast<resource_id>(m_merged.resources.size());
      m_merged.resources.insert(m_merged.resources.end(), sub.resources.begin(), sub.resources.end());
      for (resource_id* id : {&sub.stream, &sub.removals, &sub.compacted, &sub.output, &sub.trips}) *id += offset;
      sub.counts = moved(sub.counts, offset);
      sub.offsets = moved(sub.offsets, offset);
      if (sub.total) sub.total = moved(*sub.total, offset);
      for (pass& ps : sub.passes) {
        for (view& v : ps.inputs) v = moved(v, offset);
        ps.output = moved(ps.output, offset);
        ps.trips += offset;
      }
    }
    const plan& first = m_parts.front().sub;
    // The sample and what the choice needs after it (none once settled): resources appended, their
    // passes kept aside.
    const std::size_t before = m_merged.passes.size();
    if (!m_settled) {
      const choosing_views c = add_choosing(m_merged, view{first.stream}, m_shape);
      m_sample_parts = c.parts;
      m_choice = c.choice;
    }
    const std::vector<pass> choosing(m_merged.passes.begin() + static_cast<std::ptrdiff_t>(before),
                                     m_merged.passes.end());
    const std::size_t marks = first.marks() ? 1 : 0;
    m_merged.passes.assign(first.passes.begin(), first.passes.begin() + static_cast<std::ptrdiff_t>(marks));
    m_merged.passes.insert(m_merged.passes.end(), choosing.begin(), choosing.end());
    m_sample_end = m_merged.passes.size();
    for (std::size_t k = 0; k < m_parts.size(); ++k) {
      part& pt = m_parts[k];
      pt.first = m_merged.passes.size();
      m_merged.passes.insert(m_merged.passes.end(),
                             pt.sub.passes.begin() + static_cast<std::ptrdiff_t>(k == 0 ? marks : 0),
                             pt.sub.passes.end());
      pt.last = m_merged.passes.size();
    }
    m_merged.stream = first.stream;
    m_merged.removals = first.removals;
    m_merged.layout = first.layout;
    m_merged.trips = first.trips;
    // What a run choosing each part moves, known here: the run itself only records.
    plan ran = m_merged;
    for (part& pt : m_parts) {
      ran.passes.assign(m_merged.passes.begin(), m_merged.passes.begin() + static_cast<std::ptrdiff_t>(m_sample_end));
      ran.passes.insert(ran.passes.end(), m_merged.passes.begin() + static_cast<std::ptrdiff_t>(pt.first),
                        m_merged.passes.begin() + static_cast<std::ptrdiff_t>(pt.last));
      pt.moved = ran.traffic_model();
    }
  }

  std::string m_api;
  std::vector<concat_method> m_concat;
  std::vector<param_axis> m_axes;
  std::unique_ptr<executor> m_exec;
  std::optional<pass_prices> m_prices; ///< the pass model's (model=pass)
  std::vector<part> m_parts;
  plan m_merged;
  sample_shape m_shape;
  view m_sample_parts;      ///< the regions' parts of the sample (choice=host and speculate)
  choice_views m_choice;    ///< the device's choice (choice=device only)
  bool m_per_pass = false;  ///< prepare_options::per_pass
  bool m_on_device = false; ///< the device skips the candidates not chosen (choice=device)
  bool m_speculate = false; ///< the guess's first pass runs while the sample's parts go to the host (choice=speculate)
  std::size_t m_guess = 0;  ///< the part of least worst regret: what choice=none runs, and speculate's guess
  double m_ahead_ns = 0;    ///< choice=speculate: the guess's first pass (run before the choice), its time
  traffic m_ahead_moved;    ///< and its words
  bool m_settled = false;   ///< one candidate, no sample (choice=none, or auto where choosing cannot pay)
  std::optional<weighing> m_weighing; ///< what choice=auto weighed (the records' notes); none under another choice
  std::vector<round> m_rounds;        ///< schedule=interleaved on the device, where the phases line up
  std::size_t m_sample_end = 0; ///< passes [0, m_sample_end): the first candidate's marks, the sample and the choice
  /// The part the last run chose; on the device path read after the run, when first asked.
  std::size_t chosen_part() const {
    if (!m_resolved) {
      m_chosen_part = chosen_of(m_exec->words_at_end());
      m_resolved = true;
    }
    return m_chosen_part;
  }
  mutable std::size_t m_chosen_part = 0;
  mutable bool m_resolved = true;
  std::map<std::uint64_t, std::vector<std::uint32_t>> m_padded; ///< the stream padded, per layout size
};

} // namespace

algorithm_entry adaptive_entry(const std::string& api, const std::vector<concat_method>& concat,
                               const std::function<std::unique_ptr<executor>()>& make,
                               const std::vector<param_axis>& executor_axes) {
  std::vector<std::string> methods;
  for (const concat_method m : concat) methods.emplace_back(method_name(m));
  std::vector<param_axis> axes = {
      text_axis("model",
                "how it predicts each candidate's time from the sample: pass (each candidate's passes and words moved, "
                "priced by "
                "this device's empty pass and copy bandwidth, measured once) or the path of records of a bench of "
                "horn, jj, rlz "
                "and bt on this api and GPU (a .jsonl file or a folder: the moreira suite's)",
                "pass", {"pass"}),
      choice_axis("choice",
                  "where the choice is made: device (every candidate recorded, the device running only the one its "
                  "choice pass marks: conditional rendering, on Vulkan and desktop OpenGL), host (the sample's "
                  "per-region sums read back within "
                  "the run, the choice made there, then only the chosen candidate recorded), speculate (as host, with "
                  "the first pass of "
                  "the candidate that none runs handed to the device together with the read, so it works through the "
                  "round trip; the "
                  "host keeps that guess unless another is predicted faster by more than the pass: its phase's time in "
                  "the records, or "
                  "the pass model's price), none (no sample: the candidate that can lose least, by its "
                  "worst regret over the model's training records or, for the pass model, over every density), auto "
                  "(none where that candidate's mean regret is below what choosing costs: the sample and sum passes, "
                  "and the choice pass "
                  "on the device, priced by the pass model, and the round trip where the host chooses, measured once; "
                  "otherwise device on "
                  "Vulkan, host on OpenGL, where recording the skipped candidates costs more than the round trip)",
                  "auto", {"auto"}, {"auto", "device", "host", "speculate", "none"}),
      choice_axis(
          "schedule",
          "with the choice on the device, the order of the candidates' passes: sequential (one candidate after "
          "another, each under its word) or interleaved (phase by phase, round by round, one pass of each "
          "candidate: on Vulkan one barrier a round, so a skipped pass costs no barrier of its own; sequential "
          "where the candidates' phases cannot be put in one order) or auto (interleaved on the Vulkan fragment "
          "path, sequential elsewhere: what measured fastest); the record's chosen says which ran",
          "auto", {"auto"}, {"auto", "sequential", "interleaved"}),
      choice_axis("concat",
                  "the block concatenation of every candidate, as the fixed algorithms' concat (the adaptive suite "
                  "pins auto on the fragment paths: Moreira et al.'s lines, as the moreira suite's records that a "
                  "model=PATH is fitted to ran)",
                  methods.front(), {methods.front()}, methods)};
  axes.insert(axes.end(), executor_axes.begin(), executor_axes.end());
  algorithm_info inf{.api = api,
                     .name = "adaptive",
                     .summary =
                         "chooses the algorithm and block size from a sample of the data (Moreira et al.'s future "
                         "work): a sample pass, a model per candidate, then the candidate predicted fastest",
                     .stable = false, // Jumping Jack may be chosen
                     .in_place = false,
                     .input = input_kind::predicate,
                     .axes = std::move(axes)};
  return {.info = std::move(inf), .make = [api, concat, make, executor_axes] {
            return std::make_unique<adaptive_algorithm>(api, concat, executor_axes, make);
          }};
}

} // namespace winnow::shader_era
