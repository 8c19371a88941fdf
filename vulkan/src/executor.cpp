#include "winnow/vulkan/executor.hpp"

#include <algorithm>
#include <cstring>

#include "case_input.hpp"
#include "device_check.hpp"
#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

using shader_era::pass;
using shader_era::pass_kind;
using shader_era::view;

/// The addresses every frame shader's push constants start with (vulkan/shaders/compute.glsl).
struct addresses {
  VkDeviceAddress in[3] = {0, 0, 0};
  VkDeviceAddress dst = 0, trips = 0;
};

/// Word offset of level p ≥ 1 in a pyramid whose base holds s words: s − (s >> (p − 1)).
std::uint64_t level_offset(std::uint64_t s, std::uint32_t p) { return s - (s >> (p - 1)); }

} // namespace

std::uint32_t default_local_size() {
  const device_properties& p = device::get().properties();
  return std::min({256u, p.max_group_size_x, p.max_invocations});
}

VkDeviceAddress executor::address(const view& v) const {
  const buffer& b = m_buffers.at(v.id);
  if (v.level == 0 || v.level == view::all_levels) return b.address();
  return b.address(4 * level_offset(m_plan->resources.at(v.id).size(), v.level));
}

std::vector<param_axis> executor_axes() {
  // 4 by default: the frame's copy pass moves 4.0 TB/s so on an H200 at 4M, 2.6 with 1 (calibrate).
  return {integer_axis("items", "output words per invocation of a gather pass: 1, or 4 stored as one 16-byte vector",
                       "4", {"1", "4"}, 1, 4, true)};
}

void executor::prepare(const shader_era::plan& p, const param_set& params, const shader_era::case_words& input) {
  device& d = device::get();
  m_plan = &p;
  m_buffers.clear();
  // A pyramid's levels take s/2 + s/4 + … < s words: its base size holds them all.
  for (const auto& r : p.resources) {
    if (r.quad) throw unavailable("winnow::vk: compute buffers hold halving pyramids only, not '" + r.name + "'");
    m_buffers.emplace_back(r.name, 4 * r.size());
  }
  // The case's input from its copy on the device where there is one: a 4M stream's upload (a staging
  // buffer made for it, and the copy into it) was the larger part of a record's prepare on the H200.
  const case_input* in =
      input.copies ? shared_input(input.copies, input.stream.first(p.input.n), input.removals) : nullptr;
  if (in) {
    m_buffers.at(p.stream).copy_prefix(in->data, 4 * p.input.n);
    if (p.marks()) m_buffers.at(p.removals).copy_prefix(in->removals, input.removals.size_bytes());
  } else {
    m_buffers.at(p.stream).upload(input.stream);
    if (p.marks()) m_buffers.at(p.removals).upload(input.removals);
  }
  // 1024 marks: the adaptive algorithm records every candidate's phases where the device chooses, and --per-pass a mark
  // a pass.
  if (!m_seq) m_seq = std::make_unique<sequence>("shader-era run", 1024);
  // read_midway's, made here so that no timed run allocates it; grown there for a larger read.
  if (!m_readback) m_readback = std::make_unique<buffer>("midway read-back", midway_bytes, true);
  if (!m_predicates && predicates()) m_predicates = make_predicate_buffer();

  const std::uint32_t local = default_local_size();
  const auto items = static_cast<std::uint32_t>(params.integer("items"));
  m_passes.clear();
  for (const pass& ps : p.passes) {
    compiled c;
    addresses a;
    for (std::size_t k = 0; k < ps.inputs.size(); ++k) a.in[k] = address(ps.inputs[k]);
    a.dst = address(ps.output);
    const bool trips = ps.loop && p.loop_check;
    if (trips) a.trips = m_buffers.at(ps.trips).address();
    switch (ps.kind) {
    case pass_kind::gather: {
      // Four words per invocation only where the output (and the trips) start 16-byte aligned.
      const bool wide = items == 4 && !ps.one_word && a.dst % 16 == 0 && (!trips || a.trips % 16 == 0);
      const std::uint64_t invocations = wide ? (p.written(ps) + 3) / 4 : p.written(ps);
      // Constants by id: the local size, the loop check, then the pass's own from first_constant_id.
      if (ps.constants > ps.args.size()) throw error("winnow::vk: " + ps.name + ": more constants than arguments");
      std::vector<std::uint32_t> constants{local, trips ? 1u : 0u};
      static_assert(shader_era::first_constant_id == 2);
      constants.insert(constants.end(), ps.args.begin(), ps.args.begin() + ps.constants);
      c.pipe = &pipeline::get({wide ? ps.shader + "_x4" : ps.shader, std::move(constants)});
      c.groups = (invocations + local - 1) / local;
      break;
    }
    case pass_kind::mark:
      c.pipe = &pipeline::get({"mark", {local}});
      c.groups = (ps.items + local - 1) / local;
      break;
    case pass_kind::concat:
      if (ps.method == shader_era::concat_method::copy) {
        // The pass's own block (its first argument), not the plan's: a merged plan (the adaptive
        // algorithm's) holds candidates of several blocks. A workgroup takes enough blocks for four
        // words an invocation (one block where a block is wider than that).
        const std::uint32_t block = ps.args.at(0), group = std::max(1u, 4 * local / block);
        c.pipe = &pipeline::get({"concat_copy", {local, 0u, block, group}});
        c.groups = (ps.items + group - 1) / group;
      } else if (ps.method == shader_era::concat_method::search) {
        c.pipe = &pipeline::get({"concat_search", {local}});
        c.groups = (std::uint64_t{ps.io.extent} + local - 1) / local;
      } else {
        throw error("winnow::vk: compute dispatches concatenate by a copy or a search, not by rasterization");
      }
      break;
    }
    const std::size_t bytes = sizeof a + sizeof ps.io + 4 * ps.args.size();
    if (bytes > max_push_bytes)
      throw error("winnow::vk: " + ps.name + ": arguments over " + std::to_string(max_push_bytes) + " bytes");
    c.push.resize(bytes);
    std::memcpy(c.push.data(), &a, sizeof a);
    std::memcpy(c.push.data() + sizeof a, &ps.io, sizeof ps.io);
    std::memcpy(c.push.data() + sizeof a + sizeof ps.io, ps.args.data(), 4 * ps.args.size());
    m_passes.push_back(std::move(c));
  }
  d.check("winnow::vk::executor: prepare");
}

void executor::write(const view& v, std::span<const std::uint32_t> words) {
  if (v.level != 0) throw error("winnow::vk::executor: write to a level of a pyramid");
  m_buffers.at(v.id).upload(words);
}

void executor::begin() {
  m_seq->begin();
  m_predicate_source.reset();
}

void executor::record(std::size_t index) { dispatch(index, true); }

void executor::dispatch(std::size_t index, bool after_previous) {
  const compiled& c = m_passes.at(index);
  m_seq->dispatch(*c.pipe, std::span<const std::byte>(c.push), c.groups, after_previous);
}

void executor::end() {
  m_seq->submit_and_wait();
  device::get().check("winnow::vk::executor: run");
}

// Not kicked: a compute pass is so short that a submission costs the host more than the passes it
// releases (the adaptive algorithm on the H100: 2.2 × its oracle's time with kicks, 2.0 × without;
// docs/design-notes.md, "An algorithm may choose while it runs"). The fragment executor's passes
// are long enough to gain.
void executor::flush() {}

void executor::read_at_end(const view& v, std::uint64_t count) {
  if (v.level != 0) throw error("winnow::vk::executor: a read of a level of a pyramid");
  if (4 * count > m_buffers.at(v.id).size())
    throw error("winnow::vk::executor: a read of " + std::to_string(count) + " words overruns '" +
                m_plan->resources.at(v.id).name + "'");
  const std::uint64_t bytes = 4 * std::max<std::uint64_t>(count, 1);
  // Kept from run to run: a buffer made per read (as download() makes its staging) cost more than
  // the whole run on the H100.
  if (!m_readback || m_readback->size() < bytes) m_readback = std::make_unique<buffer>("midway read-back", bytes, true);
  m_seq->host_barrier();
  const VkBufferCopy region{0, 0, 4 * count};
  if (count) vkCmdCopyBuffer(m_seq->cmd(), m_buffers.at(v.id).handle(), m_readback->handle(), 1, &region);
  m_seq->host_barrier();
  m_at_end_words = count;
}

std::vector<std::uint32_t> executor::words_at_end() { return m_readback->mapped_words(m_at_end_words); }

bool executor::predicates() const { return device::get().properties().conditional_rendering; }

void executor::predicate_on(const view& v, std::uint32_t word) {
  if (!m_predicates) throw error("winnow::vk::executor: predicate_on without conditional rendering");
  if (v.level != 0 || word >= shader_era::predicate_words)
    throw error("winnow::vk::executor: predicate_on of word " + std::to_string(word) +
                " of a level or past predicate_words");
  if (m_predicate_source != v.id) {
    const buffer& source = m_buffers.at(v.id);
    m_seq->host_barrier(); // the passes' writes → the copy's reads
    const VkBufferCopy region{0, 0, std::min(source.size(), m_predicates->size())};
    vkCmdCopyBuffer(m_seq->cmd(), source.handle(), m_predicates->handle(), 1, &region);
    m_seq->predicate_barrier();
    m_seq->kick_ordered(); // the barrier alone did not keep NVIDIA from reading the predicate before the copy
    m_predicate_source = v.id;
  }
  m_seq->begin_if(m_predicates->handle(), 4 * VkDeviceSize{word});
}

void executor::predicate_off() { m_seq->end_if(); }

std::vector<std::uint32_t> executor::read_midway(const view& v, std::uint64_t count) {
  read_at_end(v, count);
  m_seq->split();
  device::get().check("winnow::vk::executor: run");
  return words_at_end();
}

std::vector<std::uint32_t> executor::read(const view& v, std::uint64_t first, std::uint64_t count) {
  const std::uint64_t base = v.level == 0 ? 0 : level_offset(m_plan->resources.at(v.id).size(), v.level);
  auto out = m_buffers.at(v.id).download(count, base + first);
  device::get().check("winnow::vk::executor: read");
  return out;
}

std::optional<bool> executor::matches(const shader_era::plan& pl, const expected_output& expected, bool stable) {
  const std::uint64_t count = shader_era::survivor_count(*this, pl);
  return matches_on_device(expected, stable,
                           {address(view{pl.output}), count, 1, address(view{pl.stream}), pl.stacks_log2_width()});
}

std::unique_ptr<winnow::timer> executor::make_timer() { return std::make_unique<timestamps>(*m_seq); }

void executor::flush_caches() { flush_device_caches(); }

std::unique_ptr<buffer> make_predicate_buffer() {
  auto b = std::make_unique<buffer>("predicates", 4 * shader_era::predicate_words, false,
                                    VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT);
  b->fill(0); // read too early (driver-quirks.md), it skips every candidate, never runs by garbage
  return b;
}

void flush_device_caches() {
  // Vulkan does not say how large the device's last-level cache is: fill 256 MiB (over 4 × the 50-60 MB
  // L2 of an H100/H200) with writes, so no line of the working set stays; fill() waits for it.
  static buffer scratch("cache flush", 256ull << 20);
  static std::uint32_t round = 0;
  scratch.fill(++round);
}

} // namespace winnow::vk
