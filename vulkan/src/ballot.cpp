// vk/ballot — count / scan / move in the manner of Billeter, Olsson & Assarsson (HPG 2009; docs/algorithms.md,
// "Count, scan, move") with subgroup operations: each subgroup (their "processor") owns a contiguous range of S·items
// elements; count: a subgroupAdd of the valid flags per range; scan: the exclusive scan of the
// per-range counts in one workgroup; move: each subgroup walks its range S elements at a time,
// subgroupBallot of the valid lanes, lane goes to j + subgroupBallotExclusiveBitCount, j +=
// subgroupBallotBitCount (compactSIMD by POPC, scattered output). Out of place, stable, any n.
// Elements of 32, 64 or 128 bits: the payload is word 0, the other words are derived from it and
// checked by result(), so a move that tears an element is caught.
// Example, S = 4, items = 2: x = 5 0 0 8 | 0 6 7 0 → counts 4 (one range of 8) → offsets 0 →
// step 1: ballot 1001 → 5 at 0, 8 at 1; step 2: ballot 0110 → 6 at 2, 7 at 3 → 5 8 6 7.
#include <algorithm>

#include "algorithms.hpp"
#include "device_check.hpp"
#include "wide.hpp"
#include "winnow/error.hpp"
#include "winnow/vulkan/executor.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

/// The push constants of the ballot shaders (vulkan/shaders/ballot_*.comp declare the same blocks).
struct count_args {
  VkDeviceAddress data, counts;
  std::uint32_t groups;
};
struct scan_args {
  VkDeviceAddress counts, offsets;
  std::uint32_t ranges;
};
struct move_args {
  VkDeviceAddress data, offsets, out;
  std::uint32_t groups;
};

class ballot final : public algorithm {
public:
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    device& d = device::get();
    const device_properties& props = d.properties();
    if (!props.subgroup_ballot)
      throw unavailable(
          "winnow::vk: vk/ballot needs subgroup ballot and arithmetic operations in compute shaders, which " +
          props.name + " lacks");
    m_w = &w;
    m_words = p.choice<std::uint32_t>("bits", {{"32", 1}, {"64", 2}, {"128", 4}});
    m_items = static_cast<std::uint32_t>(p.integer("items"));
    m_subgroup = props.subgroup_size;
    m_local = std::min({256u, props.max_group_size_x, props.max_invocations});
    if (m_subgroup < 4 || m_subgroup > 128 || (m_subgroup & (m_subgroup - 1)) || m_local % m_subgroup)
      throw unavailable("winnow::vk: vk/ballot: subgroup size " + std::to_string(m_subgroup) + " of " + props.name +
                        " is not a power of two in 4…128 dividing the workgroup");
    const std::uint64_t tile = std::uint64_t{m_local} * m_items;
    m_groups = std::max<std::uint64_t>(1, (w.size() + tile - 1) / tile);
    m_padded = m_groups * tile;
    if (m_padded * m_words > 0xffffffffull) throw unavailable("winnow::vk: vk/ballot: the stream needs 64-bit indices");
    m_ranges = m_groups * (m_local / m_subgroup);

    // Only the device keeps the stream: resets copy it from m_pristine. Padding is invalid: payload 0
    // (its other words do not matter).
    const std::uint64_t bytes = 4 * m_words * m_padded;
    m_seq = std::make_unique<sequence>("vk/ballot run", 8);
    m_data = stream_buffer("vk/ballot stream", w, m_words, m_padded, o.copies);
    m_removals = buffer();
    m_pristine = buffer();
    if (w.removal_list && !w.removals.empty()) {
      // The stream as prepared, for the resets after the mark phase zeroes payloads.
      m_pristine = buffer("vk/ballot stream (as prepared)", bytes);
      m_pristine.copy_from(m_data);
      m_removals = removals_buffer("vk/ballot removal list", w, o.copies);
    }
    m_counts = buffer("vk/ballot range counts", 4 * m_ranges);
    m_offsets = buffer("vk/ballot range offsets", 4 * (m_ranges + 1));
    m_output = buffer("vk/ballot output", bytes);

    // The host's range count assumes the queried subgroup size: pin it where the device lets us.
    const std::uint32_t pinned = props.subgroup_size_control ? m_subgroup : 0;
    m_count = &pipeline::get({"ballot_count", {m_local, m_items, m_words}, pinned});
    m_move = &pipeline::get({"ballot_move", {m_local, m_items, m_words}, pinned});
    m_scan = &pipeline::get({"ballot_scan", {std::min({1024u, props.max_group_size_x, props.max_invocations})}});
    m_ran = false;
    d.check("vk/ballot: prepare");
  }

  void reset() override {
    if (m_pristine.valid()) m_data.copy_from(m_pristine); // the mark phase zeroed payloads
  }

  void run(timer& t) override {
    m_seq->begin();
    m_launches = 0;
    if (m_removals.valid()) {
      t.phase("mark");
      const auto k = static_cast<std::uint32_t>(m_w->removals.size());
      record_mark(*m_seq, m_removals, k, m_data, m_words);
      ++m_launches;
    }
    const auto groups = static_cast<std::uint32_t>(m_groups);
    t.phase("count");
    m_seq->dispatch(*m_count, count_args{m_data.address(), m_counts.address(), groups}, m_groups);
    t.phase("scan");
    m_seq->dispatch(*m_scan, scan_args{m_counts.address(), m_offsets.address(), static_cast<std::uint32_t>(m_ranges)},
                    1);
    t.phase("move");
    m_seq->dispatch(*m_move, move_args{m_data.address(), m_offsets.address(), m_output.address(), groups}, m_groups);
    m_launches += 3;
    m_seq->submit_and_wait();
    device::get().check("vk/ballot: run");
    m_ran = true;
  }

  compaction_output result() override {
    if (!m_ran) throw error("winnow::vk: vk/ballot: result() before run()");
    const std::uint64_t v = m_offsets.download(1, m_ranges)[0];
    compaction_output out;
    out.values = payloads_of(m_output.download(v * m_words), m_words, "vk/ballot");
    out.input_after = first_words(m_data.download(m_w->size() * m_words), m_words);
    device::get().check("vk/ballot: result");
    return out;
  }

  std::optional<bool> matches_on_device(const expected_output& expected, bool stable) override {
    if (!m_ran) throw error("winnow::vk: vk/ballot: matches_on_device() before run()");
    const std::uint64_t v = m_offsets.download(1, m_ranges)[0];
    return vk::matches_on_device(expected, stable, {m_output.address(), v, m_words, m_data.address()});
  }

  traffic bytes_moved() const override {
    const std::uint64_t bytes = 4ull * m_padded * m_words, k = m_removals.valid() ? m_w->removals.size() : 0;
    // count reads the stream, scan reads the counts twice, move reads the stream and writes the kept elements.
    return {2 * bytes + 8 * m_ranges + 4 * m_ranges + 4 * k,
            4 * m_ranges + 4 * (m_ranges + 1) + 4ull * m_w->kept() * m_words + 4 * k, m_launches};
  }

  std::unique_ptr<winnow::timer> make_timer() override { return std::make_unique<timestamps>(*m_seq); }
  void flush_caches() override { flush_device_caches(); }

private:
  const workload* m_w = nullptr;
  std::uint32_t m_words = 1, m_items = 32, m_subgroup = 32, m_local = 256;
  std::uint64_t m_groups = 0, m_padded = 0, m_ranges = 0, m_launches = 0;
  std::unique_ptr<sequence> m_seq;
  buffer m_data, m_pristine, m_removals, m_counts, m_offsets, m_output;
  const pipeline *m_count = nullptr, *m_move = nullptr, *m_scan = nullptr;
  bool m_ran = false;
};

} // namespace

algorithm_entry ballot_entry() {
  return {
      .info = {.api = "vk",
               .name = "ballot",
               .summary = "Billeter-style count / scan / move with subgroupBallot + subgroupBallotExclusiveBitCount; "
                          "out of place, stable",
               .stable = true,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {choice_axis("bits",
                                    "element size [bits]; the 32-bit payload is widened, validity is payload ≠ 0", "32",
                                    {"32", "64", "128"}),
                        integer_axis("items", "elements per lane in a subgroup's range (a range is S · items elements)",
                                     "32", {"32"}, 4, 256, true)}},
      .make = [] { return std::make_unique<ballot>(); }};
}

} // namespace winnow::vk
