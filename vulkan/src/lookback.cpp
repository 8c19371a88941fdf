// vk/lookback — the single-pass stable compaction of cuda/lookback in Vulkan (shaders/lookback.comp):
// one dispatch reads the stream once and writes the survivors once, workgroups finding their output
// offsets by decoupled look-back with the Vulkan memory model's acquire/release. 32-, 64- and 128-bit
// elements; out of place or in place. Needs subgroup ballot and arithmetic and subgroups that divide
// the workgroup; memory_model=vulkan needs the Vulkan memory model.
// Example, tiles of 4: x = 5 0 0 8 | 0 6 7 0 → tile 0 keeps 2 and publishes "prefix 2"; tile 1 keeps
// 2, reads tile 0's prefix, writes 6 7 at 2 → 5 8 6 7.
#include "algorithms.hpp"
#include "wide.hpp"
#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"

namespace winnow::vk {
namespace {

constexpr std::uint32_t threads = 256; ///< shaders/lookback.comp THREADS
constexpr std::uint32_t tile_bytes = threads * 4 * 16;

/// The push constants of shaders/lookback.comp.
struct lookback_args {
  VkDeviceAddress data, out, states, counter, count;
  std::uint32_t n, epoch, base, tiles;
};

class lookback final : public algorithm {
public:
  void prepare(const workload& w, const param_set& p, const prepare_options&) override {
    const device_properties& props = device::get().properties();
    if (!props.subgroup_ballot)
      throw unavailable("winnow::vk: vk/lookback needs subgroup ballot and arithmetic, which " + props.name + " lacks");
    if (props.max_group_size_x < threads || props.max_invocations < threads || threads % props.subgroup_size)
      throw unavailable("winnow::vk: vk/lookback needs workgroups of 256 invocations in whole subgroups on " + props.name);
    m_w = &w;
    m_words = p.choice<std::uint32_t>("element", {{"32", 1}, {"64", 2}, {"128", 4}});
    m_in_place = p.choice<bool>("place", {{"out", false}, {"in", true}});
    const bool vulkan_model = p.choice<bool>("memory_model", {{"vulkan", true}, {"glsl450", false}});
    if (vulkan_model && props.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE)
      throw unavailable("winnow::vk: vk/lookback memory_model=vulkan: Mesa lavapipe (22.3) loses invocations at barriers "
                        "in shaders of the Vulkan memory model (docs/driver-quirks.md); memory_model=glsl450 runs here");
    const std::uint64_t tile = tile_bytes / (4 * m_words);
    if (w.size() >= (1ull << 31) / m_words)
      throw unavailable("winnow::vk: vk/lookback: " + std::to_string(w.size()) + " elements need 64-bit indices");
    m_tiles = (w.size() + tile - 1) / tile;
    m_host = widen(w.data, m_words, w.size());
    m_seq = std::make_unique<sequence>("vk/lookback run", 8);
    m_data = buffer("vk/lookback stream", 4 * m_host.size());
    m_data.upload(m_host);
    m_output = m_in_place ? buffer() : buffer("vk/lookback output", 4 * m_host.size());
    m_removals = buffer();
    if (w.removal_list && !w.removals.empty()) {
      m_removals = buffer("vk/lookback removal list", 4 * w.removals.size());
      m_removals.upload(w.removals);
    }
    m_states = buffer("vk/lookback tile states", 12 * std::max<std::uint64_t>(m_tiles, 1));
    m_states.fill(0);
    m_counter = buffer("vk/lookback tile counter", 4);
    m_counter.fill(0);
    m_count = buffer("vk/lookback count", 4);
    m_count.fill(0);
    if (vulkan_model && !props.vulkan_memory_model)
      throw unavailable("winnow::vk: vk/lookback memory_model=vulkan needs the Vulkan memory model, which " + props.name +
                        " lacks");
    m_pipeline = &pipeline::get({vulkan_model ? "lookback_vmm" : "lookback", {threads, m_words}});
    m_epoch = 0;
    m_base = 0;
    device::get().check("vk/lookback: prepare");
  }

  void reset() override {
    if (m_removals.valid() || m_in_place) m_data.upload(m_host); // the mark phase or the run itself wrote into it
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
    if (v > m_w->size()) throw error("winnow::vk: vk/lookback counted " + std::to_string(v) + " of " + std::to_string(m_w->size()));
    const buffer& out = m_in_place ? m_data : m_output;
    compaction_output r;
    r.values = payloads_of(out.download(v * m_words), m_words, "vk/lookback");
    if (!m_in_place) r.input_after = first_words(m_data.download(m_w->size() * m_words), m_words);
    device::get().check("vk/lookback: result");
    return r;
  }

  traffic bytes_moved() const override {
    // The stream once in, the survivors once out, each tile's state written twice; the marks.
    const std::uint64_t k = m_removals.valid() ? m_w->removals.size() : 0, e = 4ull * m_words;
    return {e * m_w->size() + 8 * m_tiles + 4 * k, e * m_w->kept() + 16 * m_tiles + 4 * k, m_launches};
  }

  std::unique_ptr<winnow::timer> make_timer() override { return std::make_unique<timestamps>(*m_seq); }
  void flush_caches() override { flush_device_caches(); }

private:
  const workload* m_w = nullptr;
  std::uint32_t m_words = 1, m_epoch = 0, m_base = 0;
  bool m_in_place = false, m_ran = false;
  std::uint64_t m_tiles = 0, m_launches = 0;
  std::vector<std::uint32_t> m_host;
  std::unique_ptr<sequence> m_seq;
  buffer m_data, m_output, m_removals, m_states, m_counter, m_count;
  const pipeline* m_pipeline = nullptr;
};

} // namespace

algorithm_entry lookback_entry() {
  return {.info = {.api = "vk",
                   .name = "lookback",
                   .summary = "single-pass stable compaction (cuda/lookback in Vulkan): 16 KiB tiles read once with 16-byte "
                              "loads, subgroup scans, decoupled look-back with acquire/release, aligned 16-byte stores",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {choice_axis("element", "element size in bits; payload in the first 32, the rest derived from it",
                                        "32", {"32", "64", "128"}),
                            choice_axis("place", "out: a separate output; in: compacted over the input", "out",
                                        {"out", "in"}),
                            choice_axis("memory_model",
                                        "the tile states' acquire/release: in the Vulkan memory model, or in GLSL450's "
                                        "(device scope)",
                                        "vulkan", {"vulkan", "glsl450"})}},
          .make = [] { return std::make_unique<lookback>(); }};
}

} // namespace winnow::vk
