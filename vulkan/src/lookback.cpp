// vk/lookback — the single-pass stable compaction of cuda/lookback in Vulkan (shaders/lookback.glsl):
// one dispatch reads the stream once and writes the survivors once, workgroups finding their output
// offsets by decoupled look-back over tile states — one 64-bit word per tile with relaxed atomics
// (state=relaxed) or release/acquire (state=packed), or flag and value words ordered by release/acquire in the Vulkan
// memory model (state=vmm) or the GLSL450 one (state=glsl450). Survivors are stored at their places by the invocations
// holding them (store=direct), staged in shared memory first (store=staged), or staged a row at a time per subgroup
// (store=rows); the look-back pauses on the subgroup clock (wait=pause) or spins. 32-, 64- and 128-bit elements; out
// of place or in place. Needs subgroup ballot and arithmetic and subgroups that divide the workgroup; the 64-bit states
// need 64-bit buffer atomics, state=vmm the Vulkan memory model, wait=pause the subgroup clock.
// Example, tiles of 4: x = 5 0 0 8 | 0 6 7 0 → tile 0 keeps 2 and publishes "prefix 2"; tile 1 keeps 2,
// reads tile 0's prefix, writes 6 7 at 2 → 5 8 6 7.
#include "algorithms.hpp"
#include "device_check.hpp"
#include "wide.hpp"
#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"

#include <charconv>

namespace winnow::vk {
namespace {

/// A tile shape: invocations per workgroup × 16-byte vectors per invocation (shaders/lookback.glsl).
struct tile_shape {
  std::uint32_t threads = 0, rows = 0;
  [[nodiscard]] std::uint32_t bytes() const { return threads * rows * 16; }
};

/// "256x4" → {256, 4}; the axis only offers valid shapes.
tile_shape parse_shape(const std::string& s) {
  tile_shape t;
  const auto x = s.find('x');
  std::from_chars(s.data(), s.data() + x, t.threads);
  std::from_chars(s.data() + x + 1, s.data() + s.size(), t.rows);
  return t;
}

/// The push constants of shaders/lookback.glsl.
struct lookback_args {
  VkDeviceAddress data, out, states, counter, count;
  std::uint32_t n, epoch, base, tiles;
};

class lookback final : public algorithm {
public:
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    const device_properties& props = device::get().properties();
    m_shape = parse_shape(p.text("tile"));
    const std::string& state = p.text("state");
    const bool one_looker = p.choice<bool>("lookback", {{"one", true}, {"all", false}});
    // shaders/lookback.glsl's STORE.
    const auto store = p.choice<std::uint32_t>("store", {{"staged", 0}, {"direct", 1}, {"rows", 2}});
    const bool pause = p.choice<bool>("wait", {{"spin", false}, {"pause", true}});
    const bool packed = state == "packed" || state == "relaxed";
    if (pause && !packed)
      throw unavailable("winnow::vk: vk/lookback wait=pause is built for state=relaxed and state=packed only");
    if (pause && !props.subgroup_clock)
      throw unavailable("winnow::vk: vk/lookback wait=pause needs the subgroup clock (VK_KHR_shader_clock), which " +
                        props.name + " lacks");
    if (!props.subgroup_ballot)
      throw unavailable("winnow::vk: vk/lookback needs subgroup ballot and arithmetic, which " + props.name + " lacks");
    if (props.max_group_size_x < m_shape.threads || props.max_invocations < m_shape.threads ||
        m_shape.threads % props.subgroup_size || props.subgroup_size < 4)
      throw unavailable("winnow::vk: vk/lookback tile=" + p.text("tile") + " needs workgroups of " +
                        std::to_string(m_shape.threads) + " invocations in whole subgroups of at least 4 on " +
                        props.name);
    // The staging area (a tile and one vector; a row and a vector per subgroup of at least 4 for
    // store=rows; one vector when stores are direct) and the per-subgroup counts (shaders/lookback.glsl).
    const std::uint32_t stage = store == 0 ? m_shape.bytes() + 16 : store == 2 ? 16 * (m_shape.threads * 5 / 4) : 16;
    const std::uint32_t shared = stage + 4 * (m_shape.rows / 2) * (m_shape.threads / 4) + 8;
    if (shared > props.max_shared_bytes)
      throw unavailable("winnow::vk: vk/lookback tile=" + p.text("tile") + " needs " + std::to_string(shared) +
                        " bytes of shared memory; " + props.name + " has " + std::to_string(props.max_shared_bytes));
    if (packed && !props.buffer_int64_atomics)
      throw unavailable("winnow::vk: vk/lookback state=" + state + " needs 64-bit buffer atomics, which " + props.name +
                        " lacks");
    if (state == "vmm" && !props.vulkan_memory_model)
      throw unavailable("winnow::vk: vk/lookback state=vmm needs the Vulkan memory model, which " + props.name +
                        " lacks");
    if (state == "vmm" && props.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE)
      throw unavailable(
          "winnow::vk: vk/lookback state=vmm: Mesa lavapipe (22.3) loses invocations at barriers "
          "in shaders of the Vulkan memory model (docs/driver-quirks.md); state=packed and state=glsl450 run here");
    if (state == "relaxed" && props.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE)
      throw unavailable(
          "winnow::vk: vk/lookback state=relaxed: Mesa lavapipe (22.3) lost a tile's count in some runs with "
          "relaxed 64-bit atomics (docs/driver-quirks.md); state=packed runs here");
    if (one_looker && props.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE)
      throw unavailable(
          "winnow::vk: vk/lookback lookback=one: Mesa lavapipe (22.3) loses invocations when subgroup-divergent "
          "code precedes a barrier (docs/driver-quirks.md); lookback=all runs here");
    m_w = &w;
    m_words = p.choice<std::uint32_t>("element", {{"32", 1}, {"64", 2}, {"128", 4}});
    m_in_place = p.choice<bool>("place", {{"out", false}, {"in", true}});
    const std::uint64_t tile = m_shape.bytes() / (4 * m_words);
    if (w.size() >= (1ull << 31) / m_words)
      throw unavailable("winnow::vk: vk/lookback: " + std::to_string(w.size()) + " elements need 64-bit indices");
    m_tiles = (w.size() + tile - 1) / tile;
    // Only the device keeps the stream: resets copy it from m_pristine.
    const std::uint64_t bytes = 4 * m_words * w.size();
    m_seq = std::make_unique<sequence>("vk/lookback run", 8);
    m_data = stream_buffer("vk/lookback stream", w, m_words, w.size(), o.copies);
    // The stream as prepared, for the resets after the mark phase or the run itself wrote into it.
    m_pristine = (w.removal_list && !w.removals.empty()) || m_in_place
                     ? buffer("vk/lookback stream (as prepared)", bytes)
                     : buffer();
    if (m_pristine.valid()) m_pristine.copy_from(m_data);
    m_output = m_in_place ? buffer() : buffer("vk/lookback output", bytes);
    m_removals =
        w.removal_list && !w.removals.empty() ? removals_buffer("vk/lookback removal list", w, o.copies) : buffer();
    m_states = buffer("vk/lookback tile states", (packed ? 8 : 12) * std::max<std::uint64_t>(m_tiles, 1));
    m_states.fill(0);
    m_counter = buffer("vk/lookback tile counter", 4);
    m_counter.fill(0);
    m_count = buffer("vk/lookback count", 4);
    m_count.fill(0);
    const std::string shader = (state == "glsl450" ? "lookback" : "lookback_" + state) + (pause ? "_pause" : "");
    const auto first_pause = static_cast<std::uint32_t>(p.integer("pause"));
    // Full subgroups of the queried size, pinned where the device lets us: the look-back steps over
    // predecessors a subgroup's width at a time, and store=rows gives each subgroup an area of that
    // width in a staging array sized for full subgroups (a driver may otherwise run them part-filled).
    const std::uint32_t pinned = props.subgroup_size_control ? props.subgroup_size : 0;
    m_pipeline = &pipeline::get(
        {shader, {m_shape.threads, m_words, m_shape.rows, one_looker ? 1u : 0u, store, first_pause}, pinned});
    m_epoch = 0;
    m_base = 0;
    device::get().check("vk/lookback: prepare");
  }

  void reset() override {
    if (m_pristine.valid()) m_data.copy_from(m_pristine);
  }

  void run(timer& t) override {
    m_seq->begin();
    m_launches = 0;
    if (m_removals.valid()) {
      t.phase("mark");
      record_mark(*m_seq, m_removals, static_cast<std::uint32_t>(m_w->removals.size()), m_data, m_words);
      ++m_launches;
    }
    t.phase("compact");
    if (++m_epoch == (1u << 30)) {
      // The epoch field is 30 bits: once in 2^30 runs the states start afresh (no run ever sees it).
      m_seq->submit_and_wait();
      m_states.fill(0);
      m_counter.fill(0);
      m_epoch = 1;
      m_base = 0;
      m_seq->begin();
    }
    const buffer& out = m_in_place ? m_data : m_output;
    m_seq->dispatch(*m_pipeline,
                    lookback_args{m_data.address(), out.address(), m_states.address(), m_counter.address(),
                                  m_count.address(), static_cast<std::uint32_t>(m_w->size()), m_epoch, m_base,
                                  static_cast<std::uint32_t>(m_tiles)},
                    m_tiles);
    m_base += static_cast<std::uint32_t>(m_tiles); // the counter wraps, and so does the base
    ++m_launches;
    m_seq->submit_and_wait();
    device::get().check("vk/lookback: run");
    m_ran = true;
  }

  compaction_output result() override {
    if (!m_ran) throw error("winnow::vk: vk/lookback: result() before run()");
    const std::uint64_t v = m_tiles ? m_count.download(1)[0] : 0;
    if (v > m_w->size())
      throw error("winnow::vk: vk/lookback counted " + std::to_string(v) + " of " + std::to_string(m_w->size()));
    const buffer& out = m_in_place ? m_data : m_output;
    compaction_output r;
    r.values = payloads_of(out.download(v * m_words), m_words, "vk/lookback");
    if (!m_in_place) r.input_after = first_words(m_data.download(m_w->size() * m_words), m_words);
    device::get().check("vk/lookback: result");
    return r;
  }

  std::optional<bool> matches_on_device(const expected_output& expected, bool stable) override {
    if (!m_ran) throw error("winnow::vk: vk/lookback: matches_on_device() before run()");
    const std::uint64_t v = m_tiles ? m_count.download(1)[0] : 0;
    const buffer& out = m_in_place ? m_data : m_output;
    return vk::matches_on_device(expected, stable,
                                 {out.address(), v, m_words, m_in_place ? VkDeviceAddress{0} : m_data.address()});
  }

  traffic bytes_moved() const override {
    // The stream once in, the survivors once out, each tile's state written twice (8 or 12 bytes
    // each time: counted as 8 and 16 of the split form); the marks.
    const std::uint64_t k = m_removals.valid() ? m_w->removals.size() : 0, e = 4ull * m_words;
    return {e * m_w->size() + 8 * m_tiles + 4 * k, e * m_w->kept() + 16 * m_tiles + 4 * k, m_launches};
  }

  std::unique_ptr<winnow::timer> make_timer() override { return std::make_unique<timestamps>(*m_seq); }
  void flush_caches() override { flush_device_caches(); }

private:
  const workload* m_w = nullptr;
  std::uint32_t m_words = 1, m_epoch = 0, m_base = 0;
  bool m_in_place = false, m_ran = false;
  tile_shape m_shape;
  std::uint64_t m_tiles = 0, m_launches = 0;
  std::unique_ptr<sequence> m_seq;
  buffer m_data, m_pristine, m_output, m_removals, m_states, m_counter, m_count;
  const pipeline* m_pipeline = nullptr;
};

} // namespace

algorithm_entry lookback_entry() {
  return {
      .info =
          {.api = "vk",
           .name = "lookback",
           .summary = "single-pass stable compaction (cuda/lookback in Vulkan): tiles read once with 16-byte loads, "
                      "subgroup scans, decoupled look-back over 64-bit tile states with pauses, each survivor stored "
                      "at its place",
           .stable = true,
           .in_place = false,
           .input = input_kind::predicate,
           .axes = {choice_axis("element", "element size in bits; payload in the first 32, the rest derived from it",
                                "32", {"32", "64", "128"}),
                    choice_axis("place", "out: a separate output; in: compacted over the input", "out", {"out", "in"}),
                    choice_axis("tile", "tile shape: invocations per workgroup x 16-byte vectors per invocation",
                                "128x16", {"128x16", "256x4", "128x8", "64x16", "256x8"}),
                    choice_axis("state",
                                "tile states: one 64-bit word with release/acquire (packed) or relaxed atomics "
                                "(relaxed), or flag and value words ordered by release/acquire in the Vulkan memory "
                                "model (vmm) or GLSL450's (glsl450)",
                                "relaxed", {"relaxed", "packed", "vmm", "glsl450"}),
                    choice_axis("lookback",
                                "one: subgroup 0 looks back and hands the prefix on through shared memory; all: "
                                "every subgroup looks back",
                                "one", {"one", "all"}),
                    choice_axis("store",
                                "staged: survivors in order through shared memory, stored as aligned 16-byte vectors; "
                                "direct: each invocation writes its survivors to their places (no shared memory); "
                                "rows: each subgroup stages its share of a row at a time and stores it as aligned "
                                "vectors (a row's shared memory per subgroup, not a tile's)",
                                "direct", {"direct", "staged", "rows"}),
                    choice_axis("wait",
                                "how the look-back waits: spin re-reads at once; pause waits on the subgroup clock "
                                "after publishing and between reads (state=relaxed, packed)",
                                "pause", {"pause", "spin"}),
                    integer_axis("pause",
                                 "wait=pause: subgroup clock ticks between publishing the tile's "
                                 "aggregate and the first read of its predecessors' states",
                                 "4000", {"4000"}, 0, 1000000)}},
      .make = [] { return std::make_unique<lookback>(); }};
}

} // namespace winnow::vk
