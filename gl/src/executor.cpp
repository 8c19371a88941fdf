#include "winnow/gl/executor.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

#include "winnow/error.hpp"
#include "api.hpp"
#include "device_check.hpp"
#include "winnow/gl/check.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/gl/timer_query.hpp"

namespace winnow::gl {
namespace {

using shader_era::pass;
using shader_era::pass_kind;
using shader_era::view;

constexpr int level_units = 3; ///< units 3 … 14: the levels 1 … 12 of a pyramid input (graphics.glsl)
constexpr int max_levels = static_cast<int>(shader_era::max_bound_levels);

void upload_rows(texture& t, std::span<const std::uint32_t> words) {
  std::vector<std::uint32_t> padded(static_cast<std::size_t>(t.width()) * static_cast<std::size_t>(t.height()), 0);
  std::copy(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(std::min(words.size(), padded.size())),
            padded.begin());
  t.upload(padded.data(), t.height());
}

} // namespace

std::uint32_t executor::max_width() const { return static_cast<std::uint32_t>(context::get().info().max_texture_size); }

const program& executor::program_for(const std::vector<std::string>& vertex, const std::vector<std::string>& fragment,
                                     const std::string& defines) {
  std::string key = defines;
  for (const auto& f : vertex) key += "|" + f;
  for (const auto& f : fragment) key += "|" + f;
  auto& p = m_programs[key];
  if (!p) p = std::make_unique<program>(vertex, fragment, defines);
  return *p;
}

const texture& executor::texture_of(const view& v) const {
  const auto& levels = m_textures.at(v.id);
  return v.level == 0 ? levels.at(0) : levels.at(v.level - 1);
}

void executor::prepare(const shader_era::plan& p, const param_set&, const shader_era::case_words& input) {
  context& ctx = context::get();
  m_plan = &p;
  m_textures.clear();
  for (const auto& r : p.resources) {
    std::vector<texture> t;
    if (r.levels == 0) t.emplace_back(texel_format::r32ui, static_cast<int>(r.width), static_cast<int>(r.height));
    if (r.levels > max_levels)
      throw unavailable("winnow::gl: a pyramid of " + std::to_string(r.levels) + " levels (at most 12)");
    for (std::uint32_t l = 1; l <= r.levels; ++l)
      t.emplace_back(texel_format::r32ui, static_cast<int>(r.level_width(l)), static_cast<int>(r.level_height(l)));
    m_textures.push_back(std::move(t));
  }
  upload_rows(m_textures.at(p.stream).at(0), input.stream);
  if (p.marks()) upload_rows(m_textures.at(p.removals).at(0), input.removals);

  // Every pass's argument block (io fields, then its own) at an aligned offset of one buffer.
  const auto align = static_cast<std::size_t>(std::max(ctx.info().uniform_offset_alignment, 16));
  std::vector<std::uint8_t> blocks;
  m_passes.clear();
  for (const pass& ps : p.passes) {
    compiled c;
    const bool trips = ps.loop && p.loop_check;
    const std::string defines = trips ? "#define WINNOW_LOOP_CHECK 1\n" : "";
    switch (ps.kind) {
    case pass_kind::gather:
      c.prog = &program_for({"graphics.glsl", "fullscreen.vert"}, {"graphics.glsl", ps.shader + ".glsl", "gather.frag"},
                            defines);
      break;
    case pass_kind::mark:
      c.prog = &program_for({"graphics.glsl", "mark.vert"}, {"graphics.glsl", "mark.frag"}, "");
      c.mode = GL_POINTS;
      c.vertices = static_cast<GLsizei>(ps.items);
      break;
    case pass_kind::concat:
      if (!shader_era::rasterized(ps.method))
        throw error("winnow::gl: the concatenation renders lines or rectangles, not a compute method");
      c.prog = &program_for({"graphics.glsl", "concat.vert"}, {"graphics.glsl", "concat.frag"}, "");
      c.mode = shader_era::draws_triangles(ps.method) ? GL_TRIANGLES : GL_LINES;
      c.vertices = static_cast<GLsizei>(shader_era::concat_vertices(ps.method, ps.items));
      break;
    }
    std::vector<const texture*> targets{&texture_of(ps.output)};
    if (trips) targets.push_back(&texture_of(view{ps.trips}));
    c.fbo = framebuffer(targets);
    if (const fbo_status s = c.fbo.status(); s != fbo_status::complete)
      throw error("winnow::gl::framebuffer (" + ps.name + "): " + std::string(to_string(s)));
    c.width = targets[0]->width();
    c.height = targets[0]->height();
    c.units.assign(ps.inputs.size(), nullptr);
    for (std::size_t k = 0; k < ps.inputs.size(); ++k) {
      const view& in = ps.inputs[k];
      if (in.level != view::all_levels) {
        c.units[k] = &texture_of(in);
        continue;
      }
      // A whole pyramid: its levels on units 3 …, its first level on the input's own unit too.
      const auto& levels = m_textures.at(in.id);
      c.units[k] = &levels.front();
      c.units.resize(level_units + max_levels, &levels.front());
      for (std::size_t l = 0; l < levels.size(); ++l) c.units[level_units + l] = &levels[l];
    }
    const auto words = std::span<const std::uint32_t>(reinterpret_cast<const std::uint32_t*>(&ps.io), sizeof ps.io / 4);
    c.args_offset = static_cast<GLintptr>(blocks.size());
    // std140 blocks are whole vec4s: bind the block rounded up to 16 bytes (the padding is zeros).
    c.args_size = static_cast<GLsizeiptr>((4 * (words.size() + ps.args.size()) + 15) / 16 * 16);
    blocks.resize(blocks.size() + static_cast<std::size_t>(c.args_size));
    std::memcpy(blocks.data() + c.args_offset, words.data(), 4 * words.size());
    std::memcpy(blocks.data() + c.args_offset + 4 * static_cast<GLintptr>(words.size()), ps.args.data(),
                4 * ps.args.size());
    blocks.resize((blocks.size() + align - 1) / align * align, 0);
    m_passes.push_back(std::move(c));
  }
  if (predicates() && !m_predicate) {
    m_predicate = &program_for({"graphics.glsl", "fullscreen.vert"}, {"graphics.glsl", "predicate.frag"}, "");
    m_predicate_word = m_predicate->uniform("u_word");
    m_predicate_log2w = m_predicate->uniform("u_log2w");
    m_predicate_texture = std::make_unique<texture>(texel_format::r32ui, 1, 1);
    m_predicate_target = std::make_unique<framebuffer>(std::vector<const texture*>{m_predicate_texture.get()});
    for (std::uint32_t k = 0; k < shader_era::predicate_words; ++k) {
      GLuint q = 0;
      glGenQueries(1, &q);
      m_queries.emplace_back(q);
    }
  }
  m_args = gpu_buffer(std::max<std::size_t>(blocks.size(), 16), blocks.data());
  set_pass_state();
  ctx.check("winnow::gl::executor: prepare");
}

void executor::write(const view& v, std::span<const std::uint32_t> words) {
  if (v.level != 0) throw error("winnow::gl::executor: write to a level of a pyramid");
  upload_rows(m_textures.at(v.id).at(0), words);
}

void executor::record(std::size_t index) {
  const compiled& c = m_passes.at(index);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, c.fbo.id());
  glViewport(0, 0, c.width, c.height);
  glUseProgram(c.prog->id());
  for (std::size_t k = 0; k < c.units.size(); ++k) bind(static_cast<int>(k), *c.units[k]);
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, m_args.id(), c.args_offset, c.args_size);
  glBindVertexArray(m_vao.id());
  glDrawArrays(c.mode, 0, c.vertices);
#ifndef NDEBUG
  check_error("glDrawArrays (" + m_plan->passes.at(index).name + ")");
#endif
}

bool executor::predicates() const { return api::has_conditional_render(); }

void executor::predicate_on(const view& v, std::uint32_t word) {
  if (!m_predicate || word >= m_queries.size() || v.level != 0)
    throw error("winnow::gl::executor: predicate_on of word " + std::to_string(word) +
                " (no conditional rendering, past " + "predicate_words, or a level)");
  if (m_queried.size() != m_queries.size()) m_queried.assign(m_queries.size(), std::nullopt);
  if (m_queried[word] != v.id) {
    m_queried[word] = v.id;
    const texture& t = texture_of(v);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_predicate_target->id());
    glViewport(0, 0, 1, 1);
    glUseProgram(m_predicate->id());
    glUniform1ui(m_predicate_word, word);
    glUniform1ui(m_predicate_log2w, static_cast<GLuint>(std::countr_zero(static_cast<unsigned>(t.width()))));
    bind(0, t);
    glBindVertexArray(m_vao.id());
    glBeginQuery(GL_ANY_SAMPLES_PASSED, m_queries[word].id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
  }
  api::begin_conditional_render(m_queries[word].id());
}

void executor::predicate_off() { api::end_conditional_render(); }

void executor::begin() {
  m_queried.assign(m_queries.size(), std::nullopt);
  if (m_pending) { // left by a run that failed between begin_read and finish_read
    glDeleteSync(m_pending->fence);
    m_pending.reset();
  }
}

void executor::end() { context::get().check("winnow::gl::executor: run"); }

void executor::flush() { glFlush(); }

// The timer's queries lie on the context's one timeline: the open phase spans the wait by itself. The
// draws are waited for by polling a fence, not inside the read: the run is stalled meanwhile, and a
// blocking wait may wake up long after the GPU is done. Desktop GL reads a single-word texture by a
// copy into a pixel-pack buffer recorded behind the draws, so that the fence covers the copy as well
// and the host then reads its own memory: glReadPixels into client memory after the fence waited for
// the GPU a second time on an H100 (docs/algorithms.md § Adaptive, "Run"). ES (which reads such a
// texture only as four words a texel) and wider formats take the plain read.
std::vector<std::uint32_t> executor::read_midway(const view& v, std::uint64_t count) {
  begin_read(v, count);
  return finish_read();
}

void executor::begin_read(const view& v, std::uint64_t count) {
  if (m_pending) throw error("winnow::gl::executor: begin_read while another read is on its way");
  const texture& t = texture_of(v);
  const auto w = static_cast<std::uint64_t>(t.width());
  const auto rows = static_cast<int>((count + w - 1) / w);
  const bool packed = count > 0 && !api::es() && t.format() == texel_format::r32ui && rows <= t.height();
  const auto bytes = static_cast<GLsizeiptr>(w * static_cast<std::uint64_t>(rows) * 4);
  if (packed) {
    if (!m_pack.id()) {
      GLuint id = 0;
      glGenBuffers(1, &id);
      m_pack = handle<detail::delete_buffer>(id);
      GLuint fbo = 0;
      glGenFramebuffers(1, &fbo);
      m_pack_source = handle<detail::delete_framebuffer>(fbo);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pack.id());
    if (m_pack_bytes < bytes) {
      glBufferData(GL_PIXEL_PACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
      m_pack_bytes = bytes;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_pack_source.id());
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.id(), 0);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glReadPixels(0, 0, static_cast<GLsizei>(w), rows, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  }
  // Not flushed here: the caller records more passes first and flushes them with the read, so the
  // device has them in the same submission instead of idling until the next one arrives.
  m_pending = pending_read{v, count, packed ? bytes : 0, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)};
}

std::vector<std::uint32_t> executor::finish_read() {
  if (!m_pending) throw error("winnow::gl::executor: finish_read without begin_read");
  const pending_read p = *m_pending;
  m_pending.reset();
#ifdef __EMSCRIPTEN__
  // WebGL signals a fence only between the browser's tasks, never within the one this run is: the
  // read itself waits for the passes (ES takes the plain read: p.bytes is 0).
  glDeleteSync(p.fence);
  return read(p.v, 0, p.count);
#endif
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  GLenum r = GL_TIMEOUT_EXPIRED;
  while ((r = glClientWaitSync(p.fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0)) == GL_TIMEOUT_EXPIRED &&
         std::chrono::steady_clock::now() < deadline) {}
  glDeleteSync(p.fence);
  if (r == GL_WAIT_FAILED || r == GL_TIMEOUT_EXPIRED)
    throw error(std::string("winnow::gl::executor: a read within the run: the passes did not finish (") +
                (r == GL_WAIT_FAILED ? "GL_WAIT_FAILED" : "60 s") + ")");
  if (p.bytes == 0) return read(p.v, 0, p.count);
  std::vector<std::uint32_t> out(p.count);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pack.id());
  const void* mapped = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, p.bytes, GL_MAP_READ_BIT);
  if (mapped) std::memcpy(out.data(), mapped, p.count * 4);
  const bool unmapped = mapped && glUnmapBuffer(GL_PIXEL_PACK_BUFFER) == GL_TRUE;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  context::get().check("winnow::gl::executor: read_midway");
  if (!unmapped) throw error("winnow::gl::executor: a read within the run: the pixel-pack buffer could not be mapped");
  return out;
}

std::vector<std::uint32_t> executor::read(const view& v, std::uint64_t first, std::uint64_t count) {
  if (count == 0) return {};
  const texture& t = texture_of(v);
  const auto w = static_cast<std::uint64_t>(t.width());
  const auto y0 = static_cast<int>(first / w), y1 = static_cast<int>((first + count + w - 1) / w);
  if (y1 > t.height())
    throw error("winnow::gl::executor: read past the end of '" + m_plan->resources.at(v.id).name + "'");
  const auto rows = t.download(y0, y1 - y0);
  const auto skip = static_cast<std::ptrdiff_t>(first - static_cast<std::uint64_t>(y0) * w);
  std::vector<std::uint32_t> out(rows.begin() + skip, rows.begin() + skip + static_cast<std::ptrdiff_t>(count));
  context::get().check("winnow::gl::executor: read");
  return out;
}

std::optional<bool> executor::matches(const shader_era::plan& pl, const expected_output& expected, bool stable) {
  const std::uint64_t count = shader_era::survivor_count(*this, pl);
  return matches_on_device(expected, stable,
                           {texture_of(view{pl.output}), count, pl.stacks_log2_width(), texture_of(view{pl.stream})});
}

std::unique_ptr<winnow::timer> executor::make_timer() { return gl::make_timer(); }

void executor::flush_caches() {
  // GL does not say how large the device's last-level cache is: clear 256 MiB (over 4 × the 50-60 MB
  // L2 of an H100/H200) with writes, so no line of the working set stays; finish before the timing.
  constexpr int side = 8192;
  if (!m_flush) {
    m_flush = std::make_unique<texture>(texel_format::r32ui, side, side);
    m_flush_target = std::make_unique<framebuffer>(std::vector<const texture*>{m_flush.get()});
  }
  static std::uint32_t round = 0;
  const GLuint value[4] = {++round, 0, 0, 0};
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_flush_target->id());
  glViewport(0, 0, side, side);
  WINNOW_GL_CHECK(glClearBufferuiv(GL_COLOR, 0, value));
  glFinish();
}

} // namespace winnow::gl
