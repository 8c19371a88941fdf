#include "compaction.hpp"

#include <algorithm>
#include <cstdlib>

#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/timer_query.hpp"

namespace winnow::gl {
namespace {

/// One texel of a stream, read back (result() only).
std::uint32_t texel(const texture& t, std::uint64_t index, int log2w) {
  std::uint32_t v = 0;
  const auto x = static_cast<GLint>(index & ((std::uint64_t{1} << log2w) - 1)), y = static_cast<GLint>(index >> log2w);
  glGetTextureSubImage(t.id(), 0, x, y, 0, 1, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, sizeof v, &v);
  return v;
}

framebuffer fbo_for(std::vector<const texture*> targets, std::string_view what) {
  framebuffer f(targets);
  if (f.status() != fbo_status::complete)
    throw error("winnow::gl::framebuffer (" + std::string(what) + "): " + std::string(to_string(f.status())));
  return f;
}

} // namespace

param_axis block_axis() {
  return {"block", "block size B: elements compacted together, a power of two ≤ the texture width", "128",
          {"32", "128", "512", "2048"}, false, 32, 2048, true};
}
param_axis scan_axis() {
  return {"scan", "prefix sum: Hillis-Steele recursive doubling or Blelloch balanced tree", "hillis", {"hillis", "blelloch"}, true};
}
param_axis concat_axis(bool sweep_both) {
  // The concatenation is the same code for every algorithm: sweeping both methods once (Horn) and
  // the rasterization test over every span cover the fallback; the others sweep lines only.
  return {"concat", "block concatenation: line primitives, or 1-pixel-high rectangles (the fallback)", "lines",
          sweep_both ? std::vector<std::string>{"lines", "rects"} : std::vector<std::string>{"lines"}, true, 0, 0, false,
          {"lines", "rects"}};
}

void block_compaction::prepare(const workload& w, const params& p) {
  context& ctx = context::get();
  const int max = ctx.info().max_texture_size;
  m_w = &w;
  m_block = std::stoi(p.at("block"));
  m_log2_block = log2_exact(static_cast<std::uint64_t>(m_block));
  m_scan = p.at("scan") == "blelloch" ? scan_kind::blelloch : scan_kind::hillis;
  m_rects = p.at("concat") == "rects";
  if (m_block > max) throw unavailable("winnow::gl: block " + std::to_string(m_block) + " is wider than the texture limit");
  m_layout = layout_for(w.size(), m_block, max);

  m_padded.assign(m_layout.texels(), 0);
  std::copy(w.data.begin(), w.data.end(), m_padded.begin());
  m_data = texture(texel_format::r32ui, m_layout.width, m_layout.height);
  m_data.upload(m_padded.data(), m_layout.height);
  m_data_fbo = fbo_for({&m_data}, "stream");
  if (w.removal_list && !w.removals.empty()) {
    m_removals_layout = layout_for(w.removals.size(), 1, max);
    std::vector<std::uint32_t> r(m_removals_layout.texels(), 0);
    std::copy(w.removals.begin(), w.removals.end(), r.begin());
    m_removals = texture(texel_format::r32ui, m_removals_layout.width, m_removals_layout.height);
    m_removals.upload(r.data(), m_removals_layout.height);
    m_mark_prog = program("mark.vert", "mark.frag");
  }
  // Test builds count loop trips (tests/gl/loop_bound_test.cpp).
  const char* check = std::getenv("WINNOW_GL_LOOP_CHECK");
  m_loop_check = check && std::string(check) == "1";
  m_compacted = texture(texel_format::r32ui, m_layout.width, m_layout.height);
  if (m_loop_check) {
    m_trips = std::make_unique<texture>(texel_format::r32ui, m_layout.width, m_layout.height);
    m_compacted_fbo = fbo_for({&m_compacted, m_trips.get()}, "compacted blocks + loop trips");
  } else {
    m_compacted_fbo = fbo_for({&m_compacted}, "compacted blocks");
  }
  m_output = texture(texel_format::r32ui, m_layout.width, m_layout.height);
  m_output_fbo = fbo_for({&m_output}, "output");

  m_blocks = m_layout.texels() / static_cast<std::uint64_t>(m_block);
  m_counts_layout = layout_for(m_blocks, 1, max);
  m_counts = texture(texel_format::r32ui, m_counts_layout.width, m_counts_layout.height);
  m_counts_fbo = fbo_for({&m_counts}, "block counts");
  m_offsets = std::make_unique<stream_scan>(m_counts_layout, m_scan, max);
  m_count_prog = program("fullscreen.vert", "block_count.frag");
  m_concat_prog = program("concat.vert", "concat.frag");
  prepare_in_block(p);
  ctx.check("winnow::gl: prepare");
}

void block_compaction::reset() {
  // The mark phase wrote zeros into the stream; put the unmarked stream back.
  if (m_w->removal_list && !m_w->removals.empty()) m_data.upload(m_padded.data(), m_layout.height);
}

void block_compaction::run(timer& t) {
  m_runner.reset_tally();
  if (m_w->removal_list && !m_w->removals.empty()) {
    t.phase("mark");
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_data_fbo.id());
    glViewport(0, 0, m_layout.width, m_layout.height);
    glUseProgram(m_mark_prog.id());
    bind(0, m_removals);
    set(m_mark_prog, 0, m_removals_layout.log2_width);
    set(m_mark_prog, 1, m_layout.log2_width);
    glProgramUniform2i(m_mark_prog.id(), 2, m_layout.width, m_layout.height);
    glBindVertexArray(m_runner.vertex_array_id());
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(m_w->removals.size()));
    m_runner.count_pass(m_w->removals.size(), m_w->removals.size());
  }
  const texture& count_from = run_in_block(t, m_compacted_fbo);

  t.phase("count");
  bind(0, count_from);
  set(m_count_prog, 0, counts_from() == count_source::invalid_scan ? 0 : 1);
  set(m_count_prog, 1, static_cast<int>(m_blocks));
  set(m_count_prog, 2, m_counts_layout.log2_width);
  set(m_count_prog, 3, m_layout.log2_width - m_log2_block);
  set(m_count_prog, 4, m_block);
  m_runner.draw(m_count_prog, m_counts_fbo, m_counts_layout.width, m_counts_layout.height, 1);
  m_offsets_tex = &m_offsets->run(m_runner, m_counts);

  t.phase("concat");
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_output_fbo.id());
  glViewport(0, 0, m_layout.width, m_layout.height);
  glUseProgram(m_concat_prog.id());
  bind(0, *m_offsets_tex);
  bind(1, m_counts);
  bind(2, m_compacted);
  set(m_concat_prog, 0, m_rects ? 1 : 0);
  set(m_concat_prog, 1, m_counts_layout.log2_width);
  set(m_concat_prog, 2, m_layout.log2_width);
  glProgramUniform2i(m_concat_prog.id(), 3, m_layout.width, m_layout.height);
  set(m_concat_prog, 4, m_block);
  glBindVertexArray(m_runner.vertex_array_id());
  glDrawArrays(m_rects ? GL_TRIANGLES : GL_LINES, 0, static_cast<GLsizei>(m_blocks * (m_rects ? 12u : 4u)));
  // Each block's (off, cnt) is read once (its vertices share the cache lines); every survivor is read once
  // and written once.
  m_runner.count_pass(2 * m_blocks + m_w->kept(), m_w->kept());
  context::get().check("winnow::gl: run");
}

compaction_output block_compaction::result() {
  const std::uint64_t last = m_blocks - 1;
  const std::uint64_t v = texel(*m_offsets_tex, last, m_counts_layout.log2_width) + texel(m_counts, last, m_counts_layout.log2_width);
  compaction_output out;
  const auto w = static_cast<std::uint64_t>(m_layout.width);
  out.values = m_output.download(0, static_cast<int>((v + w - 1) / w));
  out.values.resize(v);
  auto input = m_data.download(0, m_layout.height);
  input.resize(m_w->size());
  out.input_after = std::move(input);
  if (m_trips) {
    const auto trips = m_trips->download(0, m_layout.height);
    const std::uint32_t most = trips.empty() ? 0 : *std::max_element(trips.begin(), trips.end());
    // A fragment whose loop was cut by the cap writes bound + 1.
    if (most > static_cast<std::uint32_t>(m_loop_bound))
      throw error("winnow::gl: a search loop needed more than its proven bound of " + std::to_string(m_loop_bound) + " trips");
  }
  context::get().check("winnow::gl: result");
  return out;
}

traffic block_compaction::bytes_moved() const { return {m_runner.bytes_read(), m_runner.bytes_written(), m_runner.passes()}; }

std::unique_ptr<winnow::timer> block_compaction::make_timer() { return std::make_unique<timer_query>(); }

void scan_then_search::prepare_search(const char* shader, int bound, int cap_location) {
  m_cap_location = cap_location;
  m_scan_passes = std::make_unique<segmented_scan>(m_layout.width, m_layout.height, m_block, m_scan);
  m_search = program("fullscreen.vert", shader, loop_check_define());
  m_loop_bound = bound;
}

const texture& scan_then_search::run_in_block(timer& t, const framebuffer& out) {
  t.phase("scan");
  const texture& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
  t.phase("search");
  bind(0, m_data);
  bind(1, p);
  set(m_search, 0, m_block);
  set(m_search, m_cap_location, m_log2_block);
  m_runner.draw(m_search, out, m_layout.width, m_layout.height, 2);
  return p;
}

} // namespace winnow::gl
