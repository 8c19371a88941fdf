#include "winnow/vulkan/fragment_executor.hpp"

#include <algorithm>
#include <cstring>

#include "winnow/error.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"
#include "device_check.hpp"

namespace winnow::vk {
namespace {

using shader_era::concat_method;
using shader_era::pass;
using shader_era::pass_kind;
using shader_era::view;

/// Colour writes of one pass → the next pass's reads (vertex and fragment shaders) and its colour
/// loads and writes; and the reads of one pass before the next pass overwrites them.
/// With it, the layout transitions `images` (none for a run's first pass that keeps every layout).
void pass_barrier(VkCommandBuffer cmd, bool after_pass, const std::vector<VkImageMemoryBarrier>& images) {
  if (!after_pass && images.empty()) return;
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  constexpr VkPipelineStageFlags stages = VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  vkCmdPipelineBarrier(cmd, stages, stages, 0, after_pass ? 1 : 0, &b, 0, nullptr,
                       static_cast<std::uint32_t>(images.size()), images.data());
}

} // namespace

std::optional<std::string> fragment_unavailable_reason() {
  if (auto reason = unavailable_reason()) return reason;
  const device_properties& p = device::get().properties();
  if (!p.graphics) return "winnow::vk: the queue of " + p.name + " cannot draw (no VK_QUEUE_GRAPHICS_BIT)";
  if (!p.dynamic_rendering)
    return "winnow::vk: " + p.name + " lacks dynamic rendering (Vulkan 1.3), which the fragment path uses";
  return std::nullopt;
}

fragment_executor::~fragment_executor() { release_sets(); }

void fragment_executor::release_sets() noexcept {
  if (m_pool) vkDestroyDescriptorPool(device::get().handle(), m_pool, nullptr);
  m_pool = VK_NULL_HANDLE;
}

std::uint32_t fragment_executor::max_width() const {
  return std::min(device::get().properties().max_image_width, max_layout_width);
}

const image& fragment_executor::image_of(const view& v) const {
  const auto& levels = m_images.at(v.id);
  return v.level == 0 ? levels.at(0) : levels.at(v.level - 1);
}

image& fragment_executor::image_of(const view& v) {
  return const_cast<image&>(static_cast<const fragment_executor&>(*this).image_of(v));
}

void fragment_executor::prepare(const shader_era::plan& p, const param_set&, const shader_era::case_words& input) {
  device& d = device::get();
  const raster_layout& layout = raster_layout::get();
  m_plan = &p;
  m_passes.clear();
  // read_midway's, made here so that no timed run allocates it; grown there for a larger read.
  if (!m_readback) m_readback = std::make_unique<buffer>("midway read-back", midway_bytes, true);
  if (!m_predicates && predicates()) m_predicates = make_predicate_buffer();
  release_sets();
  m_images.clear();
  for (const auto& r : p.resources) {
    std::vector<image> levels;
    if (r.levels > raster_layout::levels)
      throw unavailable("winnow::vk: a pyramid of " + std::to_string(r.levels) + " levels (at most " +
                        std::to_string(raster_layout::levels) + ")");
    if (r.levels == 0) levels.emplace_back(r.name, r.width, r.height);
    for (std::uint32_t l = 1; l <= r.levels; ++l)
      levels.emplace_back(r.name + "/" + std::to_string(l), r.level_width(l), r.level_height(l));
    m_images.push_back(std::move(levels));
  }
  m_images.at(p.stream).at(0).upload(input.stream);
  if (p.marks()) m_images.at(p.removals).at(0).upload(input.removals);
  if (!m_unbound) m_unbound = std::make_unique<image>("unbound input", 1, 1);
  // 1024 marks: the adaptive algorithm records every candidate's phases where the device chooses, and --per-pass a mark
  // a pass.
  if (!m_seq) m_seq = std::make_unique<sequence>("shader-era fragment run", 1024);

  const auto sets = static_cast<std::uint32_t>(std::max<std::size_t>(p.passes.size(), 1));
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                  sets * (raster_layout::inputs + raster_layout::levels)};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = sets;
  pci.poolSizeCount = 1;
  pci.pPoolSizes = &size;
  WINNOW_VK_CHECK(vkCreateDescriptorPool(d.handle(), &pci, nullptr, &m_pool));

  for (const pass& ps : p.passes) {
    compiled c;
    const bool trips = ps.loop && p.loop_check;
    bool& keep = c.keep;
    raster_key key;
    key.targets = trips ? 2 : 1;
    switch (ps.kind) {
    case pass_kind::gather:
      key.vertex = "fullscreen_vert";
      key.fragment = ps.shader + (trips ? "_trips_frag" : "_frag");
      if (ps.constants > ps.args.size()) throw error("winnow::vk: " + ps.name + ": more constants than arguments");
      if (ps.constants) { // by id: first_constant_id, … (args.hpp)
        key.constants.assign(shader_era::first_constant_id, 0u);
        key.constants.insert(key.constants.end(), ps.args.begin(), ps.args.begin() + ps.constants);
      }
      break;
    case pass_kind::mark:
      key.vertex = "mark_vert";
      key.fragment = "mark_frag";
      key.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
      c.vertices = static_cast<std::uint32_t>(ps.items);
      keep = true;
      break;
    case pass_kind::concat:
      if (!rasterized(ps.method))
        throw error("winnow::vk: the fragment path concatenates by lines or rectangles, not a compute method");
      key.vertex = "concat_vert";
      key.fragment = "concat_frag";
      key.topology = draws_triangles(ps.method) ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST : VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
      c.vertices = static_cast<std::uint32_t>(concat_vertices(ps.method, ps.items));
      keep = true;
      break;
    }
    c.pipe = &raster_pipeline::get(key);
    c.targets = {&image_of(ps.output)};
    if (trips) c.targets.push_back(&image_of(view{ps.trips}));
    c.extent = {c.targets.front()->width(), c.targets.front()->height()};
    for (const image* t : c.targets) {
      VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
      a.imageView = t->view();
      a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      // A full-screen triangle writes every texel: nothing needs loading.
      a.loadOp = keep ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      c.attachments.push_back(a);
    }

    // The inputs: units 0-2 as on GL; a whole pyramid also on the 12 level bindings (its first level
    // on the input's own binding too). What a pass does not read holds a 1 × 1 image.
    std::vector<image*> bound(raster_layout::inputs + raster_layout::levels, m_unbound.get());
    for (std::size_t k = 0; k < ps.inputs.size(); ++k) {
      const view& in = ps.inputs[k];
      if (in.level != view::all_levels) {
        bound[k] = &image_of(in);
        continue;
      }
      auto& levels = m_images.at(in.id);
      bound[k] = &levels.front();
      for (std::size_t l = 0; l < levels.size(); ++l) bound[raster_layout::inputs + l] = &levels[l];
    }
    std::vector<VkDescriptorImageInfo> infos;
    for (image* b : bound) {
      // An image cannot be read in SHADER_READ_ONLY_OPTIMAL while the pass draws into it.
      if (std::find(c.targets.begin(), c.targets.end(), b) != c.targets.end())
        throw error("winnow::vk: " + ps.name + " reads '" + b->name() + "', which it draws into");
      infos.push_back({layout.sampler, b->view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
      if (std::find(c.reads.begin(), c.reads.end(), b) == c.reads.end()) c.reads.push_back(b);
    }
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = m_pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout.set;
    WINNOW_VK_CHECK(vkAllocateDescriptorSets(d.handle(), &ai, &c.set));
    VkWriteDescriptorSet writes[raster_layout::inputs + 1];
    for (std::uint32_t b = 0; b <= raster_layout::inputs; ++b) {
      writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[b].dstSet = c.set;
      writes[b].dstBinding = b;
      writes[b].descriptorCount = b < raster_layout::inputs ? 1 : raster_layout::levels;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      writes[b].pImageInfo = &infos[b];
    }
    vkUpdateDescriptorSets(d.handle(), raster_layout::inputs + 1, writes, 0, nullptr);

    const std::size_t bytes = sizeof ps.io + 4 * ps.args.size();
    if (bytes > max_push_bytes)
      throw error("winnow::vk: " + ps.name + ": arguments over " + std::to_string(max_push_bytes) + " bytes");
    c.push.resize(bytes);
    std::memcpy(c.push.data(), &ps.io, sizeof ps.io);
    std::memcpy(c.push.data() + sizeof ps.io, ps.args.data(), 4 * ps.args.size());
    m_passes.push_back(std::move(c));
  }
  d.check("winnow::vk::fragment_executor: prepare");
}

void fragment_executor::write(const view& v, std::span<const std::uint32_t> words) {
  if (v.level != 0) throw error("winnow::vk::fragment_executor: write to a level of a pyramid");
  m_images.at(v.id).at(0).upload(words);
}

void fragment_executor::begin() {
  m_seq->begin();
  m_drawn = false;
  m_predicate_source.reset();
}

void fragment_executor::record(std::size_t index) {
  std::vector<VkImageMemoryBarrier> layouts;
  enter_layouts(m_passes.at(index), layouts);
  pass_barrier(m_seq->cmd(), m_drawn, layouts);
  m_drawn = true;
  render(m_passes.at(index));
}

void fragment_executor::record_round(const view& choice, std::span<const std::size_t> passes,
                                     std::span<const std::uint32_t> words) {
  if (passes.size() != words.size()) throw error("winnow::vk::fragment_executor: record_round: a word for every pass");
  if (passes.empty()) return;
  copy_predicate(choice);
  // One barrier holds every pass's layout transitions: the round's passes use disjoint images.
  std::vector<VkImageMemoryBarrier> layouts;
  for (const std::size_t i : passes) enter_layouts(m_passes.at(i), layouts);
  pass_barrier(m_seq->cmd(), m_drawn, layouts);
  m_drawn = true;
  for (std::size_t j = 0; j < passes.size(); ++j) {
    predicate_on(choice, words[j]);
    render(m_passes.at(passes[j]));
    predicate_off();
  }
}

void fragment_executor::enter_layouts(const compiled& c, std::vector<VkImageMemoryBarrier>& layouts) {
  for (image* r : c.reads)
    if (auto b = r->enter(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                          VK_ACCESS_SHADER_READ_BIT, false))
      layouts.push_back(*b);
  for (image* t : c.targets)
    if (auto b = t->enter(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                          VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, !c.keep))
      layouts.push_back(*b);
}

void fragment_executor::render(const compiled& c) {
  const VkCommandBuffer cmd = m_seq->cmd();
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, c.extent};
  ri.layerCount = 1;
  ri.colorAttachmentCount = static_cast<std::uint32_t>(c.attachments.size());
  ri.pColorAttachments = c.attachments.data();
  vkCmdBeginRendering(cmd, &ri);
  const VkViewport viewport{0, 0, static_cast<float>(c.extent.width), static_cast<float>(c.extent.height), 0, 1};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &ri.renderArea);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c.pipe->handle());
  const raster_layout& layout = raster_layout::get();
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout.pipeline, 0, 1, &c.set, 0, nullptr);
  vkCmdPushConstants(cmd, layout.pipeline, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     static_cast<std::uint32_t>(c.push.size()), c.push.data());
  if (c.vertices) vkCmdDraw(cmd, c.vertices, 1, 0, 0);
  vkCmdEndRendering(cmd);
}

void fragment_executor::end() {
  m_seq->submit_and_wait();
  device::get().check("winnow::vk::fragment_executor: run");
}

void fragment_executor::flush() {
  m_seq->kick();
  m_drawn = false; // the next command buffer starts with a full barrier
}

void fragment_executor::read_at_end(const view& v, std::uint64_t count) {
  if (v.level != 0) throw error("winnow::vk::fragment_executor: a read of a level of a pyramid");
  const image& t = image_of(v);
  const auto rows = static_cast<std::uint32_t>((count + t.width() - 1) / t.width());
  if (rows > t.height()) throw error("winnow::vk::fragment_executor: a read past the end of '" + t.name() + "'");
  const std::uint64_t bytes = 4 * std::max<std::uint64_t>(std::uint64_t{t.width()} * rows, 1);
  // Kept from run to run, as on compute (executor.cpp).
  if (!m_readback || m_readback->size() < bytes) m_readback = std::make_unique<buffer>("midway read-back", bytes, true);
  if (rows) t.record_copy(m_seq->cmd(), m_readback->handle(), 0, rows);
  m_seq->host_barrier();
  m_at_end_words = count;
}

std::vector<std::uint32_t> fragment_executor::words_at_end() { return m_readback->mapped_words(m_at_end_words); }

bool fragment_executor::predicates() const { return device::get().properties().conditional_rendering; }

void fragment_executor::predicate_on(const view& v, std::uint32_t word) {
  if (!m_predicates) throw error("winnow::vk::fragment_executor: predicate_on without conditional rendering");
  const image& t = image_of(v);
  if (v.level != 0 || word >= shader_era::predicate_words ||
      std::uint64_t{t.width()} * t.height() > shader_era::predicate_words)
    throw error("winnow::vk::fragment_executor: predicate_on of word " + std::to_string(word) + " of '" + t.name() +
                "': a level, or past predicate_words");
  copy_predicate(v);
  m_seq->begin_if(m_predicates->handle(), 4 * VkDeviceSize{word});
}

void fragment_executor::copy_predicate(const view& v) {
  if (m_predicate_source == v.id) return;
  image_of(v).record_copy(m_seq->cmd(), m_predicates->handle(), 0,
                          image_of(v).height()); // its barriers wait for the passes' writes
  // No kick_ordered as on compute (executor.cpp): on the H100 the fragment path's first conditional
  // draw after the copy saw the copied predicate in every order the test records.
  m_seq->predicate_barrier();
  m_predicate_source = v.id;
}

void fragment_executor::predicate_off() { m_seq->end_if(); }

std::vector<std::uint32_t> fragment_executor::read_midway(const view& v, std::uint64_t count) {
  read_at_end(v, count);
  m_seq->split();
  // The new command buffer starts with a full barrier: no pass after it needs one of its own.
  m_drawn = false;
  device::get().check("winnow::vk::fragment_executor: run");
  return words_at_end();
}

std::vector<std::uint32_t> fragment_executor::read(const view& v, std::uint64_t first, std::uint64_t count) {
  if (count == 0) return {};
  const image& t = image_of(v);
  const std::uint64_t w = t.width();
  const auto y0 = static_cast<std::uint32_t>(first / w), y1 = static_cast<std::uint32_t>((first + count + w - 1) / w);
  if (y1 > t.height()) throw error("winnow::vk::fragment_executor: read past the end of '" + t.name() + "'");
  const auto rows = t.download(y0, y1 - y0);
  const auto skip = static_cast<std::ptrdiff_t>(first - std::uint64_t{y0} * w);
  return {rows.begin() + skip, rows.begin() + skip + static_cast<std::ptrdiff_t>(count)};
}

namespace {

/// `b` if it holds `bytes`, else a buffer that does (the device-local kind: the check reads it).
void hold(buffer& b, const std::string& name, std::uint64_t bytes) {
  if (!b.valid() || b.size() < bytes) b = buffer(name, bytes);
}

} // namespace

std::optional<bool> fragment_executor::matches(const shader_era::plan& pl, const expected_output& expected,
                                               bool stable) {
  const std::uint64_t count = shader_era::survivor_count(*this, pl);
  if (count != expected.values.size()) return false;
  const image &out = image_of(view{pl.output}), &stream = image_of(view{pl.stream});
  // Whole rows, row-major: word i of a buffer is word i of the image, as the compute path stores
  // them; the output's rows that hold its survivors (as shader_era::read_survivors reads them).
  const auto rows = [](std::uint64_t words, const image& t) {
    return static_cast<std::uint32_t>((words + t.width() - 1) / t.width());
  };
  const std::uint32_t out_rows = rows(pl.output_words(count), out), stream_rows = rows(pl.input.n, stream);
  if (out_rows > out.height() || stream_rows > stream.height())
    throw error("winnow::vk::fragment_executor: the survivors or the stream overrun their image");
  try {
    hold(m_checked_output, "device check: output rows", 4ull * out_rows * out.width());
    hold(m_checked_stream, "device check: stream rows", 4ull * stream_rows * stream.width());
  } catch (const unavailable&) {
    return std::nullopt; // no room on the device beside the run's images: the host checks
  }
  sequence& s = transfer_sequence();
  s.begin();
  if (out_rows) out.record_copy(s.cmd(), m_checked_output.handle(), 0, out_rows);
  if (stream_rows) stream.record_copy(s.cmd(), m_checked_stream.handle(), 0, stream_rows);
  s.submit_and_wait();
  device::get().check("winnow::vk::fragment_executor: the device check's copies");
  return matches_on_device(expected, stable,
                           {m_checked_output.address(), count, 1, m_checked_stream.address(), pl.stacks_log2_width()});
}

std::unique_ptr<winnow::timer> fragment_executor::make_timer() { return std::make_unique<timestamps>(*m_seq); }

void fragment_executor::flush_caches() { flush_device_caches(); }

} // namespace winnow::vk
