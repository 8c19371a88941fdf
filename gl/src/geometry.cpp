// gl/geometry — compaction by a geometry shader and transform feedback, the shader-era competitor
// that Billeter et al. (2009, Table 3, Fig. 4) measure their compaction against: one point per
// element is drawn with the rasterizer off; the vertex stage fetches the element, the geometry stage
// emits it only where it is valid, and transform feedback appends what is emitted, in the order of
// the input points, to a capture buffer: the survivors, compacted and in order (stable). A
// transform-feedback query counts them. Removal lists are marked first, by the frame's mark pass
// (points into the stream texture) through the GL executor. Desktop GL only: OpenGL ES 3.1 has no
// geometry shaders.
#include "geometry.hpp"

#include <cstring>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/gl/check.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/executor.hpp"
#include "winnow/shader_era/frame.hpp"
#include "winnow/shader_era/layout.hpp"

namespace winnow::gl {
namespace {

using shader_era::view;

/// The stream (and the removal list) as the frame lays them out, and the mark pass when the case is
/// a removal list: run by the GL executor, so the stream texture and its marking are the plans'.
shader_era::plan stream_plan(const workload& w, std::uint32_t max_width) {
  shader_era::plan p;
  p.layout = shader_era::layout_for(w.size(), 1, max_width);
  p.input = {w.size(), w.removals.size(), w.removal_list, w.kept()};
  shader_era::add_stream(p, 1, max_width);
  return p;
}

/// Which stages the points pass: gl/geometry's vertex and geometry stages, or (calibration only,
/// never registered: it captures every word, valid or not) the vertex stage alone, so that what the
/// geometry stage adds can be told from what the points cost without it.
enum class stages { vertex_and_geometry, vertex_only };

class geometry final : public algorithm {
public:
  explicit geometry(stages s = stages::vertex_and_geometry) : m_stages(s) {}

  void prepare(const workload& w, const param_set& p, const prepare_options&) override {
    context& ctx = context::get();
    if (ctx.info().kind == context_kind::es31)
      throw unavailable("gl/geometry: OpenGL ES 3.1 has no geometry shaders (WINNOW_GL_CONTEXT=es31)");
    m_w = &w;
    // llvmpipe runs a transform-feedback draw's vertex and geometry stages inside glDrawArrays but
    // runs timestamp queries later, when it rasterizes the binned scene: both stamps would then
    // follow the work (a 4M-element run timed at 25 ns). A flush after the phase's stamp runs that
    // stamp first (docs/driver-quirks.md). Other drivers stamp in command order, and are not flushed.
    m_flush_before_draw = ctx.info().renderer.find("llvmpipe") != std::string::npos;
    m_plan = stream_plan(w, m_exec.max_width());
    std::vector<std::uint32_t> padded(m_plan.layout.size(), 0);
    std::copy(w.data.begin(), w.data.end(), padded.begin());
    m_exec.prepare(m_plan, p, {padded, w.removals});
    if (!m_prog.id())
      m_prog = m_stages == stages::vertex_only ? program::feedback({"feedback.vert"}, {}, "v_value")
                                               : program::feedback({"feedback.vert"}, {"feedback.geom"}, "f_value");
    if (!m_target) {
      // A draw needs a complete framebuffer even with the rasterizer off, and a surfaceless context's
      // default one is not: a 1 × 1 target that nothing is drawn into.
      m_target_texture = std::make_unique<texture>(texel_format::r32ui, 1, 1);
      m_target = std::make_unique<framebuffer>(std::vector<const texture*>{m_target_texture.get()});
    }
    m_capture = gpu_buffer(std::max<std::size_t>(4 * w.size(), 4), nullptr);
    if (!m_query.id()) {
      GLuint q = 0;
      glGenQueries(1, &q);
      m_query = handle<detail::delete_query>(q);
    }
    ctx.check("gl/geometry: prepare");
  }

  void reset() override {
    // The mark pass wrote zeros into the stream; put the unmarked stream back.
    if (m_plan.marks()) m_exec.write(view{m_plan.stream}, m_w->data);
  }

  void run(timer& t) override {
    if (m_plan.marks()) {
      t.phase("mark");
      m_exec.record(0);
    }
    t.phase("compact");
    if (m_flush_before_draw) glFlush();
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_target->id());
    glUseProgram(m_prog.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_exec.texture_of(view{m_plan.stream}).id());
    glUniform1i(m_prog.uniform("u_stream"), 0);
    glUniform1ui(m_prog.uniform("u_log2w"), m_plan.layout.log2_width);
    glBindVertexArray(m_vao.id());
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, m_capture.id());
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, m_query.id());
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(m_w->size()));
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glDisable(GL_RASTERIZER_DISCARD);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  }

  compaction_output result() override {
    GLuint count = 0;
    glGetQueryObjectuiv(m_query.id(), GL_QUERY_RESULT, &count);
    if (count > m_w->size())
      throw error("gl/geometry: transform feedback wrote " + std::to_string(count) + " of " +
                  std::to_string(m_w->size()));
    compaction_output out;
    out.values.resize(count);
    if (count) {
      // Mapped, not glGetBufferSubData: the build also checks this file against the ES 3.1 loader.
      const auto bytes = static_cast<GLsizeiptr>(4 * std::size_t{count});
      glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, m_capture.id());
      const void* mapped = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, GL_MAP_READ_BIT);
      if (!mapped) throw error("gl/geometry: the capture buffer could not be mapped for reading");
      std::memcpy(out.values.data(), mapped, static_cast<std::size_t>(bytes));
      glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
      glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
    }
    out.input_after = m_exec.read(view{m_plan.stream}, 0, m_w->size());
    context::get().check("gl/geometry: result");
    return out;
  }

  traffic bytes_moved() const override {
    // The stream read once and the survivors written once; marking reads R and writes a word per index.
    const std::uint64_t k = m_plan.marks() ? m_w->removals.size() : 0;
    return {4 * (m_w->size() + k), 4 * (m_w->kept() + k), 1 + (k ? 1u : 0u)};
  }
  std::unique_ptr<timer> make_timer() override { return m_exec.make_timer(); }
  void flush_caches() override { m_exec.flush_caches(); }
  std::optional<std::string> refuses(std::uint64_t n) const override {
    const std::uint64_t w = m_exec.max_width();
    if (n <= w * w && n <= 0x7FFFFFFFu) return std::nullopt;
    return std::to_string(n) + " elements: over the texture limit (" + std::to_string(w) + " × " + std::to_string(w) +
           ") or a draw's vertex count";
  }

private:
  stages m_stages;
  const workload* m_w = nullptr;
  bool m_flush_before_draw = false;
  executor m_exec;
  shader_era::plan m_plan;
  program m_prog;
  std::unique_ptr<texture> m_target_texture;
  std::unique_ptr<framebuffer> m_target;
  gpu_buffer m_capture;
  vertex_array m_vao;
  handle<detail::delete_query> m_query;
};

/// The median time of the transform-feedback draw over `spec`'s stream through `s`, after checking
/// that it captured exactly what those stages must: every word in order (the vertex stage alone), or
/// the valid ones in order (the geometry stage, as gl/geometry).
double feedback_draw_ns(const std::string& spec, stages s, const run_options& runs) {
  const workload w = generate(spec);
  geometry g(s);
  g.prepare(w, param_set{}, prepare_options{});
  const measurement m = measure(g, runs);
  const std::vector<std::uint32_t> expected = s == stages::vertex_only ? w.data : reference_compact(w);
  if (m.output.values != expected)
    throw error("gl calibrate: the transform-feedback draw over " + spec + " through " +
                (s == stages::vertex_only ? "the vertex stage alone" : "the geometry stage") + " captured " +
                std::to_string(m.output.values.size()) + " words, not the " + std::to_string(expected.size()) +
                " it must, or not in their order");
  return m.total.median;
}

} // namespace

std::vector<calibration> feedback_calibration(bool software_device) {
  // Billeter et al.'s geometry-shader compactor is measured against the same draw without the
  // geometry stage and with nothing to emit: the first tells the geometry stage's cost from the
  // points' way through the vertex stage and transform feedback (which these probes do not part),
  // the second the emits' from the stage's. The vertex stage alone runs over half-valid words, so
  // that capturing every word (not the valid half) shows it ran without the geometry stage.
  // On llvmpipe a draw takes 0.4-1 s: there 1 untimed run and the median of 3 (28 s to 8 s here).
  constexpr std::size_t n = std::size_t{1} << 22;
  const run_options runs =
      software_device ? run_options{.warmup = 1, .reps = 3} : run_options{.warmup = 3, .reps = 11, .warmup_ns = 200e6};
  const double points = feedback_draw_ns("uniform:4M:p=0.5", stages::vertex_only, runs);
  const double all = feedback_draw_ns("all:4M", stages::vertex_and_geometry, runs);
  const double none = feedback_draw_ns("none:4M", stages::vertex_and_geometry, runs);
  const std::string draw =
      "one glDrawArrays of 4M points, rasterizer off, transform feedback into a buffer, median of " +
      std::to_string(runs.reps);
  return {
      {"feedback_vertex_ns_4M", points, "ns",
       draw + ": the vertex stage alone, every point captured (no geometry stage)"},
      {"feedback_geometry_all_ns_4M", all, "ns",
       draw + ": gl/geometry's vertex and geometry stages, every word valid (every point emitted)"},
      {"feedback_geometry_none_ns_4M", none, "ns", draw + ": gl/geometry's stages, no word valid (nothing emitted)"},
      {"feedback_vertex_points_per_ns", double(n) / points, "1/ns", "points captured per ns by the vertex stage alone"},
      {"feedback_geometry_points_per_ns", double(n) / all, "1/ns",
       "points emitted and captured per ns through the geometry stage"}};
}

algorithm_entry geometry_entry() {
  return {.info = {.api = "gl",
                   .name = "geometry",
                   .summary =
                       "geometry-shader compaction by transform feedback (Billeter et al.'s shader-era competitor): "
                       "a point per element, emitted only where valid, captured in order; desktop GL only",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {},
                   .relative_cost = 6},
          .make = [] { return std::make_unique<geometry>(); }};
}

} // namespace winnow::gl
