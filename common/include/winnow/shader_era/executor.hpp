#pragma once
/// What an API does with a plan: create its resources, run its passes, read resources back. GL runs
/// each pass as a fragment pass over textures, Vulkan as a compute dispatch over buffers (vk) or as a
/// fragment pass over images (vkfrag); plan_algorithm drives any of them through the lifecycle, so
/// phases, traffic, loop checks and result arithmetic are the same code for all.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/registry.hpp"
#include "winnow/shader_era/frame.hpp"

namespace winnow::shader_era {

/// The native APIs whose executors run the plans: GL fragment passes, Vulkan compute dispatches,
/// Vulkan fragment passes. (The web build's webgl runs GL's executor on WebGL 2: tools/web.)
inline constexpr std::array<std::string_view, 3> plan_apis{"gl", "vk", "vkfrag"};

/// Whether `info` is one of the four shader-era algorithms (horn, jj, rlz, bt) or the HistoPyramid
/// on a plan API or webgl.
[[nodiscard]] bool runs_plans(const algorithm_info& info);

/// The most words a predicate resource holds (executor::predicate_on): one per adaptive candidate.
inline constexpr std::uint32_t predicate_words = 64;

/// What executor::prepare puts into the stream and the removal list.
struct case_words {
  std::span<const std::uint32_t> stream;   ///< padded with zeros to the layout
  std::span<const std::uint32_t> removals; ///< R
  /// Where the stream's first plan::input.n words and `removals` are the case's own: the case's
  /// device copies (prepare_options::copies), in which an executor may keep them on its device for
  /// the case's other records (Vulkan compute). nullptr: words of no case (a probe's, a test's).
  device_copies* copies = nullptr;
};

class executor {
  view m_at_end; ///< read_at_end's, for the default words_at_end()
  std::uint64_t m_at_end_count = 0;
  view m_begun; ///< begin_read's, for the default finish_read()
  std::uint64_t m_begun_count = 0;
  bool m_read_begun = false;

public:
  virtual ~executor() = default;
  /// The widest (and tallest) 2D array this API may use: GL_MAX_TEXTURE_SIZE on GL.
  [[nodiscard]] virtual std::uint32_t max_width() const = 0;
  /// Creates every resource and the programs of every pass; puts `input` into the stream and the
  /// removal list. `params` holds the executor's own axes (entries(): executor_axes) besides the
  /// plan's. Not timed. The plan outlives the executor's use of it.
  virtual void prepare(const plan& p, const param_set& params, const case_words& input) = 0;
  /// Writes `words` to words [0, words.size()) of a plain resource; what follows them is unspecified
  /// (the 2D arrays of GL and vkfrag take zeros). Not timed: reset() puts the stream back after the
  /// mark pass wrote zeros into it; tests set up a pass's inputs.
  virtual void write(const view& v, std::span<const std::uint32_t> words) = 0;
  /// A run is begin(), record(i) for every pass in order, end(): on return the passes are done.
  virtual void begin() = 0;
  virtual void record(std::size_t pass_index) = 0;
  virtual void end() = 0;
  /// Between begin() and end(): words [0, count) of a plain resource once the passes recorded so far
  /// are done, in one round trip (Vulkan: a copy into a mapped buffer recorded after them, one
  /// submission, one wait); the run goes on (record() more, then end()), and the phase open at the
  /// call spans the wait. The adaptive algorithm reads its sample back this way in the timed run.
  [[nodiscard]] virtual std::vector<std::uint32_t> read_midway(const view& v, std::uint64_t count) = 0;
  /// read_midway in two halves, so that the device runs more passes while the read is on its way:
  /// begin_read places the read of words [0, count) of `v` behind the passes recorded so far; the
  /// caller records the passes to run meanwhile and flush()es them, so that they reach the device in
  /// one submission with the read (on GL on the H100, a pass flushed after the read started about
  /// 25 µs later: docs/algorithms.md § Adaptive, "Speculating"); finish_read waits for the read and
  /// returns the words. The passes recorded between the two must not write `v`. By default finish_read is
  /// read_midway at that point (it then waits for those passes too); desktop GL overrides both (a
  /// pixel-pack copy and a fence).
  virtual void begin_read(const view& v, std::uint64_t count);
  [[nodiscard]] virtual std::vector<std::uint32_t> finish_read();
  /// Between begin() and end(): hands the passes recorded so far to the device without waiting, so
  /// that it starts on them while the host records the rest (after read_midway, it idles otherwise).
  virtual void flush() = 0;
  /// Between begin() and end(): words [0, count) of a plain resource as the passes recorded so far
  /// leave them, for words_at_end() once the run is over — nothing waits within the run, and the
  /// read falls outside its timers (Vulkan: a copy into a mapped buffer recorded here; by default the
  /// resource is read when words_at_end() asks, which holds as long as no later pass writes it).
  virtual void read_at_end(const view& v, std::uint64_t count);
  [[nodiscard]] virtual std::vector<std::uint32_t> words_at_end();
  /// Whether the device itself can skip passes by a word that earlier passes wrote (conditional
  /// rendering: Vulkan's covers draws and dispatches, desktop OpenGL's draws): the adaptive algorithm then records
  /// every candidate and the device runs only the chosen one, with no round trip to the host.
  [[nodiscard]] virtual bool predicates() const { return false; }
  /// Between begin() and end(), where predicates(): the passes recorded after predicate_on(v, k) and
  /// before predicate_off() run only where word k of `v` (a plain resource of at most predicate_words)
  /// is not 0 when the device reaches them. Neither nests.
  virtual void predicate_on(const view& v, std::uint32_t word);
  /// Whether the adaptive algorithm's choice=auto skips on the device here: where a skipped pass
  /// costs less than the round trip it saves and the skipping was seen right on a GPU (both Vulkan
  /// paths on the H100: docs/driver-quirks.md). OpenGL's conditional rendering works, but the host still
  /// records every skipped candidate's state changes and draws, which the GPU waits for: on the H100
  /// that cost more than the round trip it saves (docs/algorithms.md § Adaptive, "Run").
  [[nodiscard]] virtual bool prefers_predicates() const { return predicates(); }
  virtual void predicate_off();
  /// Between begin() and end(), where predicates(): one pass of each of several candidates, none
  /// reading what another of them writes (the caller checks) — pass `passes[j]` runs where word
  /// `words[j]` of `choice` is not 0. Each is recorded between predicate_on and predicate_off in turn,
  /// by record_in_round; the Vulkan executors order the whole round after what came before by one
  /// barrier, not one a pass, so a pass the device skips costs no barrier of its own (the adaptive
  /// algorithm's schedule=interleaved).
  virtual void record_round(const view& choice, std::span<const std::size_t> passes,
                            std::span<const std::uint32_t> words);
  /// Whether the adaptive algorithm's schedule=auto interleaves here: on the Vulkan fragment path,
  /// where a skipped pass costs an empty render pass whatever the order, one barrier a round made the
  /// device choice 1.04-1.13 × the oracle against 1.08-1.20 sequential on the H100; on Vulkan compute
  /// the rounds cost more than the barriers they save (1.9 × sequential there), and OpenGL reads the
  /// choice back (docs/algorithms.md § Adaptive, "Run").
  [[nodiscard]] virtual bool prefers_rounds() const { return false; }
  /// Words [first, first + count) of a view (a plain resource or one level of a pyramid).
  [[nodiscard]] virtual std::vector<std::uint32_t> read(const view& v, std::uint64_t first, std::uint64_t count) = 0;
  /// The check of the last run's result where it lies (algorithm::matches_on_device; through
  /// shader_era::matches_on_device), the run of `pl` (the plan prepared, or a part of a merged one):
  /// whether its survivors (in order, or in stacks: plan::output_in_stacks) are `expected` (in order
  /// where `stable`, else as a set) and the stream after the run is the case's but for payload 0 at
  /// its removed indices.
  /// nullopt: this executor checks on the host (the default), or its device cannot tell.
  [[nodiscard]] virtual std::optional<bool> matches(const plan& pl, const expected_output& expected, bool stable);
  /// The timer of this API; phases are marked between record() calls.
  [[nodiscard]] virtual std::unique_ptr<timer> make_timer() = 0;
  /// Evicts the device's caches (outside the timed region).
  virtual void flush_caches() = 0;

protected:
  /// record_round's recording of one of its passes (`first`: the round's first): record() by default.
  virtual void record_in_round(std::size_t pass_index, bool /*first*/) { record(pass_index); }
};

/// Marks a new phase on `t` where a recorded pass starts one: the pass's phase, or with per_pass
/// (prepare_options) the pass itself, after `owner` where given ("OWNER / PHASE: PASS": the adaptive
/// algorithm's candidates, whose passes share names).
class phase_marker {
public:
  explicit phase_marker(bool per_pass) : m_per_pass(per_pass) {}
  void operator()(timer& t, const pass& p, std::string_view owner = {}) { (*this)(t, p.phase, p.name, owner); }
  /// `label` names what is recorded next within `phase` (a pass, or a round of passes).
  void operator()(timer& t, const std::string& phase, const std::string& label, std::string_view owner) {
    std::string name = !m_per_pass ? phase : (owner.empty() ? "" : std::string(owner) + " / ") + phase + ": " + label;
    if (m_first || name != m_current) t.phase(name);
    m_current = std::move(name);
    m_first = false;
  }

private:
  bool m_per_pass;
  bool m_first = true;
  std::string m_current;
};

/// A shader-era algorithm on one executor: the whole lifecycle, identical for every API.
class plan_algorithm final : public algorithm {
public:
  plan_algorithm(algorithm_kind a, const std::function<std::unique_ptr<executor>()>& make_executor);
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override;
  void reset() override;
  void run(timer& t) override;
  [[nodiscard]] compaction_output result() override;
  [[nodiscard]] std::optional<bool> matches_on_device(const expected_output& expected, bool stable) override;
  [[nodiscard]] traffic bytes_moved() const override { return m_plan.traffic_model(); }
  [[nodiscard]] std::unique_ptr<timer> make_timer() override { return m_exec->make_timer(); }
  void flush_caches() override { m_exec->flush_caches(); }
  [[nodiscard]] params chosen() const override { return m_chosen; }
  [[nodiscard]] std::optional<std::string> refuses(std::uint64_t n) const override;

  /// For traces: the plan, and the executor to run its passes one at a time.
  [[nodiscard]] const plan& the_plan() const { return m_plan; }
  [[nodiscard]] executor& exec() { return *m_exec; }

private:
  algorithm_kind m_kind;
  std::unique_ptr<executor> m_exec;
  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_padded;
  plan m_plan;
  params m_chosen; ///< concat=auto's probe result
  bool m_per_pass = false;
};

/// Why `n` elements do not fit an API whose 2D arrays are at most `max_width` wide and tall (the
/// stream's layout), or nullopt: every plan algorithm's refuses().
[[nodiscard]] std::optional<std::string> layout_refusal(std::uint64_t n, std::uint64_t max_width);

/// The executor's check of a run of `pl` (executor::matches), but for a run with the loop check:
/// its trips are read back (read_output).
[[nodiscard]] std::optional<bool> matches_on_device(executor& x, const plan& pl, const expected_output& expected,
                                                    bool stable);

/// How many survivors a run of `pl` on `x` counted (winnow::error when more than the input).
[[nodiscard]] std::uint64_t survivor_count(executor& x, const plan& pl);

/// What a run of `pl` on `x` left: the survivors, the input after the run; checks the count and, with
/// the loop check, that no search loop passed its proven bound (winnow::error otherwise).
[[nodiscard]] compaction_output read_output(executor& x, const plan& pl);

/// The output's first `count` words in order: as stored, or from the stacks where the plan's
/// concatenation drew them (plan::output_in_stacks).
[[nodiscard]] std::vector<std::uint32_t> read_survivors(executor& x, const plan& pl, std::uint64_t count);

/// The registry entries of the four algorithms on `api`, and of the adaptive one choosing among them, each running on
/// an executor from `make` that concatenates by `concat` and takes `executor_axes` of its own.
[[nodiscard]] std::vector<algorithm_entry> entries(const std::string& api, const std::vector<concat_method>& concat,
                                                   const std::function<std::unique_ptr<executor>()>& make,
                                                   const std::vector<param_axis>& executor_axes = {});

/// The HistoPyramid's entry on `api`: for the graphics paths, whose pyramid levels are textures of any
/// shape (Vulkan compute lays out only the block algorithms' halving levels in its buffers).
[[nodiscard]] algorithm_entry histopyramid_entry(const std::string& api,
                                                 const std::function<std::unique_ptr<executor>()>& make,
                                                 const std::vector<param_axis>& executor_axes = {});

} // namespace winnow::shader_era
