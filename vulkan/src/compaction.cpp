#include "compaction.hpp"

#include <algorithm>
#include <cstdlib>

#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {

param_axis block_axis() {
  // The sweep keeps the conformance product quick on lavapipe; tests/vulkan covers 128 and 2048.
  return {"block", "block size B: elements compacted together, a power of two", "128", {"32", "512"}, false, 32, 2048, true};
}
param_axis scan_axis() {
  return {"scan", "prefix sum: Hillis-Steele recursive doubling or Blelloch balanced tree", "hillis", {"hillis", "blelloch"}, true};
}
param_axis concat_axis(bool sweep_both) {
  // The concatenation is shared by every algorithm: Horn's sweep covers both methods, the others copy.
  return {"concat",
          "block concatenation without a rasterizer (ALGORITHMS.md §8(d)): a workgroup per block copies its run, or an "
          "invocation per output element binary-searches the block offsets",
          "copy", sweep_both ? std::vector<std::string>{"copy", "search"} : std::vector<std::string>{"copy"}, true, 0, 0,
          false, {"copy", "search"}};
}

void block_compaction::prepare(const workload& w, const params& p) {
  device& d = device::get();
  m_w = &w;
  m_block = static_cast<std::uint32_t>(std::stoul(p.at("block")));
  m_log2_block = log2_exact(m_block);
  m_scan = p.at("scan") == "blelloch" ? scan_kind::blelloch : scan_kind::hillis;
  m_search_concat = p.at("concat") == "search";
  m_layout = layout_for(w.size(), m_block);
  m_size = m_layout.size();
  if (m_size > 0xffffffffull / 2) throw unavailable("winnow::vk: " + std::to_string(w.size()) + " elements need 64-bit indices");
  m_seq = std::make_unique<sequence>(name() + " run", 64);
  m_runner.attach(*m_seq);

  m_padded.assign(m_size, 0);
  std::copy(w.data.begin(), w.data.end(), m_padded.begin());
  m_data = buffer(name() + " stream", 4 * m_size);
  m_data.upload(m_padded);
  m_removals = buffer();
  if (w.removal_list && !w.removals.empty()) {
    m_removals = buffer(name() + " removal list", 4 * w.removals.size());
    m_removals.upload(w.removals);
  }
  const char* check = std::getenv("WINNOW_VK_LOOP_CHECK");
  m_loop_check = check && std::string(check) == "1";
  m_trips = m_loop_check ? buffer(name() + " loop trips", 4 * m_size) : buffer();
  m_compacted = buffer(name() + " compacted blocks", 4 * m_size);
  m_output = buffer(name() + " output", 4 * m_size);
  m_blocks = m_size / m_block;
  m_counts_layout = layout_for(m_blocks, 1);
  m_counts = buffer(name() + " block counts", 4 * m_counts_layout.size());
  m_offsets = std::make_unique<stream_scan>(m_counts_layout, m_scan);
  m_offsets_buf = nullptr;
  prepare_in_block(p);
  d.check(name() + ": prepare");
}

void block_compaction::reset() {
  // The mark phase wrote zeros into the stream; put the unmarked stream back.
  if (m_removals.valid()) m_data.upload(m_padded);
}

const pipeline& block_compaction::search_pipeline(const std::string& name, std::uint32_t bound,
                                                  std::vector<std::uint32_t> extra) const {
  std::vector<std::uint32_t> c{m_block, bound, m_loop_check ? 1u : 0u};
  c.insert(c.end(), extra.begin(), extra.end());
  return shader(name, default_local_size(), std::move(c));
}

pass_args block_compaction::search_args() const {
  pass_args a;
  a.trips = m_trips.address();
  return a;
}

void block_compaction::run(timer& t) {
  const std::uint32_t local = default_local_size();
  m_runner.reset_tally();
  m_seq->begin();
  if (m_removals.valid()) {
    t.phase("mark");
    pass_args a;
    a.a = m_removals.address();
    a.dst = m_data.address();
    a.k0 = 1;
    m_runner.run(shader("mark", local), a, m_w->removals.size(), 1);
  }
  const VkDeviceAddress count_from = run_in_block(t);

  t.phase("count");
  pass_args c;
  c.a = count_from;
  c.dst = m_counts.address();
  c.k0 = static_cast<std::uint32_t>(counts_from());
  c.k1 = static_cast<std::uint32_t>(m_blocks);
  m_runner.run(shader("block_count", local, {m_block}), c, m_counts_layout.size(), 1);
  m_offsets_buf = &m_offsets->run(m_runner, m_counts);

  t.phase("concat");
  pass_args a;
  a.a = m_offsets_buf->address();
  a.b = m_counts.address();
  a.c = m_compacted.address();
  a.dst = m_output.address();
  a.k0 = static_cast<std::uint32_t>(m_blocks);
  const std::uint64_t kept = m_w->kept();
  if (m_search_concat) {
    // Every output element reads ⌈log2 nb⌉ + 2 offsets and counts, and its source.
    const pipeline& p = shader("concat_search", local, {m_block});
    a.n = static_cast<std::uint32_t>(m_size);
    m_runner.run_groups(p, a, (m_size + p.local_size() - 1) / p.local_size(), 2 * m_blocks + kept, kept);
  } else {
    const pipeline& p = shader("concat_copy", std::min(local, m_block), {m_block});
    m_runner.run_groups(p, a, m_blocks, 2 * m_blocks + kept, kept);
  }
  m_seq->submit_and_wait();
  device::get().check(name() + ": run");
}

compaction_output block_compaction::result() {
  if (!m_offsets_buf) throw error("winnow::vk: " + name() + ": result() before run()");
  const std::uint64_t last = m_blocks - 1;
  const std::uint64_t v = m_offsets_buf->download(1, last)[0] + m_counts.download(1, last)[0];
  compaction_output out;
  out.values = m_output.download(v);
  out.input_after = m_data.download(m_w->size());
  if (m_loop_check) {
    const auto trips = m_trips.download(m_size);
    const std::uint32_t most = trips.empty() ? 0 : *std::max_element(trips.begin(), trips.end());
    if (most > m_loop_bound)
      throw error("winnow::vk: " + name() + ": a search loop needed more than its proven bound of " +
                  std::to_string(m_loop_bound) + " trips");
  }
  device::get().check(name() + ": result");
  return out;
}

traffic block_compaction::bytes_moved() const { return {m_runner.bytes_read(), m_runner.bytes_written(), m_runner.passes()}; }

std::unique_ptr<winnow::timer> block_compaction::make_timer() { return std::make_unique<timestamps>(*m_seq); }

void scan_then_search::prepare_search(std::string shader, std::uint32_t bound) {
  m_shader = std::move(shader);
  m_scan_passes = std::make_unique<segmented_scan>(m_size, m_block, m_scan);
  m_loop_bound = bound;
}

VkDeviceAddress scan_then_search::run_in_block(timer& t) {
  t.phase("scan");
  const buffer& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
  t.phase("search");
  pass_args a = search_args();
  a.a = m_data.address();
  a.b = p.address();
  a.dst = m_compacted.address();
  // Reads the stream and the scan; a search's further fetches stay in the block: cache hits.
  m_runner.run(search_pipeline(m_shader, m_loop_bound), a, m_size, 2);
  return p.address();
}

} // namespace winnow::vk
