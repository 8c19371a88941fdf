// The GL engine's pieces on whatever EGL finds here (llvmpipe in CI).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "../../gl/src/geometry.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/backend.hpp"
#include "winnow/harness.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/objects.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/gl/timer_query.hpp"
#include "winnow/settings.hpp"
#include "winnow/shader_era/args.hpp"

namespace winnow::gl {
namespace {

#define WINNOW_REQUIRE_GL()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

/// A full-screen triangle, in the context's GLSL (4.50, 3.30 or ES 3.10).
std::string vertex() {
  return glsl_version() + "\nvoid main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), "
                          "float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n";
}

TEST(gl_engine, context_is_the_kind_asked_for_with_timer_queries) {
  WINNOW_REQUIRE_GL();
  const context_info& i = context::get().info();
  EXPECT_FALSE(i.renderer.empty());
  // WINNOW_GL_CONTEXT=gl33 asks for 3.3; a driver may give a later version for it (Mesa gives 4.5).
  const auto wanted = requested_contexts();
  EXPECT_EQ(i.kind, wanted.front()) << "the first kind asked for was refused here";
  // "4.5 (Core Profile) Mesa …" or "OpenGL ES 3.2 Mesa …"
  const std::string number = i.version.substr(i.version.find_first_of("0123456789"));
  const int version = 10 * std::stoi(number) + std::stoi(number.substr(number.find('.') + 1));
  EXPECT_GE(version, i.kind == context_kind::gl45 ? 45 : i.kind == context_kind::gl33 ? 33 : 31) << i.version;
  EXPECT_EQ(i.version.find("OpenGL ES") != std::string::npos, i.kind == context_kind::es31) << i.version;
  EXPECT_GE(i.max_draw_buffers, 2);
  EXPECT_GE(i.max_texture_size, 8192);
  EXPECT_GT(i.timestamp_bits, 0);
  EXPECT_NE(i.platform.find("EGL"), std::string::npos);
}

TEST(gl_engine, every_timed_phase_is_a_debug_group_of_its_name) {
  WINNOW_REQUIRE_GL();
  if (!context::get().info().debug)
    GTEST_SKIP() << "the debug output reports groups on a debug context only (WINNOW_DEBUG=0)";
  registry reg;
  register_backend(reg);
  prepared_case c = prepare_case(generate("uniform:5000:p=0.3"));
  for (const char* name : {"gl/horn", "gl/rlz"}) {
    record_debug_groups(true);
    const record r = run_case(reg, reg.find(name), {}, c, {.warmup = 0, .reps = 1});
    record_debug_groups(false);
    ASSERT_TRUE(r.verified) << r.mismatch;
    // One run: every phase it timed was pushed as a group of that name and popped before the next.
    const auto groups = take_debug_groups();
    std::set<std::string> pushed, timed;
    for (std::size_t i = 0; i < groups.size(); i += 2) {
      ASSERT_LT(i + 1, groups.size()) << "a group left open";
      ASSERT_EQ(groups[i].rfind("push ", 0), 0u) << groups[i];
      EXPECT_EQ(groups[i + 1], "pop " + groups[i].substr(5)) << "groups do not nest";
      pushed.insert(groups[i].substr(5));
    }
    for (const auto& p : r.phases) timed.insert(p.name);
    EXPECT_EQ(pushed, timed) << name;
    EXPECT_GE(groups.size() / 2, r.phases.size());
  }
}

TEST(gl_engine, without_timer_queries_the_phases_are_timed_on_the_host_after_glfinish_and_records_say_so) {
  WINNOW_REQUIRE_GL();
  registry reg;
  register_backend(reg);
  prepared_case c = prepare_case(generate("uniform:5000:p=0.3"));
  const record queries = run_case(reg, reg.find("gl/rlz"), {}, c, {.warmup = 0, .reps = 2});
  ::setenv("WINNOW_GL_TIMER", "finish", 1); // as a context without GL_TIMESTAMP queries gets
  const record host = run_case(reg, reg.find("gl/rlz"), {}, c, {.warmup = 0, .reps = 2});
  ::setenv("WINNOW_GL_TIMER", "sundial", 1);
  EXPECT_THROW((void)run_case(reg, reg.find("gl/rlz"), {}, c, {.warmup = 0, .reps = 1}), usage_error);
  ::unsetenv("WINNOW_GL_TIMER");
  ASSERT_TRUE(host.verified) << host.mismatch;
  EXPECT_EQ(queries.timer.rfind("GL_TIMESTAMP", 0), 0u) << queries.timer; // _EXT on ES
  EXPECT_NE(host.timer.find("glFinish"), std::string::npos) << host.timer;
  ASSERT_EQ(host.phases.size(), queries.phases.size());
  for (std::size_t i = 0; i < host.phases.size(); ++i) {
    EXPECT_EQ(host.phases[i].name, queries.phases[i].name);
    EXPECT_GT(host.phases[i].ns.median, 0);
  }
}

TEST(gl_engine, framebuffer_status_is_typed) {
  WINNOW_REQUIRE_GL();
  const texture t(texel_format::r32ui, 4, 4);
  EXPECT_EQ(framebuffer({&t}).status(), fbo_status::complete);
  EXPECT_EQ(framebuffer(std::vector<const texture*>{}).status(), fbo_status::missing_attachment);
  EXPECT_EQ(to_string(fbo_status::missing_attachment), "missing attachment");
}

TEST(gl_engine, shader_compile_failure_names_the_shader_and_quotes_the_log) {
  WINNOW_REQUIRE_GL();
  try {
    (void)program::from_source("broken.frag", vertex(), glsl_version() + "\nvoid main() { this is not glsl; }\n");
    FAIL() << "no error";
  } catch (const error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("winnow::gl::program: broken.frag (fragment) does not compile: ", 0), 0u) << what;
    EXPECT_GT(what.size(), std::string("winnow::gl::program: broken.frag (fragment) does not compile: ").size() + 5)
        << "the driver's info log is quoted";
  }
  (void)take_debug_errors(); // drivers may also report the failure through the debug output
}

TEST(gl_engine, embedded_shaders_are_found_by_name_and_unknown_ones_are_errors) {
  WINNOW_REQUIRE_GL();
  EXPECT_FALSE(shader_source("scan_hillis.glsl").empty());
  EXPECT_THROW((void)program({"fullscreen.vert"}, {"nope.frag"}), error);
}

TEST(gl_engine, every_pass_shader_compiles_and_its_argument_block_matches_args_hpp) {
  WINNOW_REQUIRE_GL();
  for (const auto& b : shader_era::arg_blocks) {
    const std::string shader = b.shader;
    std::vector<std::string> vs{"graphics.glsl", "fullscreen.vert"},
        fs{"graphics.glsl", shader + ".glsl", "gather.frag"};
    if (shader == "concat" || shader == "mark") {
      vs = {"graphics.glsl", shader + ".vert"};
      fs = {"graphics.glsl", shader + ".frag"};
    }
    const program p(vs, fs);
    const GLuint index = glGetProgramResourceIndex(p.id(), GL_UNIFORM_BLOCK, "winnow_args");
    ASSERT_NE(index, GL_INVALID_INDEX) << shader;
    const GLenum what = GL_NUM_ACTIVE_VARIABLES;
    GLint members = 0;
    glGetProgramResourceiv(p.id(), GL_UNIFORM_BLOCK, index, 1, &what, 1, nullptr, &members);
    // std140 blocks keep every member active: the io fields, then the shader's own.
    EXPECT_EQ(static_cast<std::size_t>(members), shader_era::io_words + b.words) << shader;
  }
  context::get().check("argument blocks");
}

TEST(gl_engine, includes_are_expanded_and_every_file_is_numbered_for_the_log) {
  WINNOW_REQUIRE_GL();
  std::string legend;
  const std::string text =
      assemble("#version 450 core", "#define X 1\n", {"graphics.glsl", "scan_hillis.glsl"}, &legend);
  EXPECT_EQ(text.rfind("#version 450 core\n#define X 1\n#line 1 1\n", 0), 0u);
  EXPECT_EQ(text.find("#include"), std::string::npos) << "mapped.glsl is pulled in";
  EXPECT_NE(text.find("uint mapped0("), std::string::npos);
  EXPECT_EQ(legend, "1 = graphics.glsl, 2 = scan_hillis.glsl, 3 = mapped.glsl");
}

TEST(gl_engine, the_context_is_a_debug_context_exactly_when_debug_contexts_are_on) {
  WINNOW_REQUIRE_GL();
  EXPECT_EQ(context::get().info().debug, debug_enabled());
  EXPECT_TRUE(debug_enabled()) << "the tests run on debug contexts (tests/debug_on.cpp)";
}

TEST(gl_engine, a_gl_error_fails_the_check_that_follows) {
  WINNOW_REQUIRE_GL();
  context& c = context::get();
  c.check("clean");
  glEnable(0x1234); // no such capability: GL_INVALID_ENUM on every kind of context
  try {
    c.check("winnow test");
    FAIL() << "no error";
  } catch (const error& e) { EXPECT_EQ(std::string(e.what()).rfind("winnow test: ", 0), 0u) << e.what(); }
  EXPECT_NO_THROW(c.check("cleared"));
}

TEST(gl_engine, a_pass_writes_every_texel_and_timestamps_are_monotonic_and_non_zero) {
  WINNOW_REQUIRE_GL();
  const program p =
      program::from_source("index.frag", vertex(),
                           glsl_version() + "\nlayout(location = 0) out uint o;\n"
                                            "void main() { o = uint(gl_FragCoord.y) * 64u + uint(gl_FragCoord.x); }\n");
  const texture t(texel_format::r32ui, 64, 32);
  const framebuffer f({&t});
  pass_runner r;
  timer_query q;
  q.start();
  q.phase("first");
  for (int i = 0; i < 20; ++i) r.draw(p, f, 64, 32);
  q.phase("second");
  r.draw(p, f, 64, 32);
  q.stop();
  const auto phases = q.read();
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].name, "first");
  EXPECT_GT(phases[0].ns, 0);
  EXPECT_GT(phases[1].ns, 0);
  EXPECT_EQ(r.passes(), 21u);
  const auto texels = t.download(0, 32);
  for (std::uint32_t i = 0; i < texels.size(); ++i) ASSERT_EQ(texels[i], i);
  context::get().check("pass test");
}

// gl calibrate takes gl/geometry's draw apart. Each probe checks inside that it captured exactly what
// its stages must (the vertex stage alone: every word of a half-valid stream, in order; the geometry
// stage: the valid words in order, all of them or none), so a probe that drew the wrong stages or
// data throws and fails here; the times are only checked to be times.
TEST(gl_calibrate, the_geometry_compactors_draw_is_taken_apart_by_probes_that_capture_what_they_should) {
  WINNOW_REQUIRE_GL();
  if (context::get().info().kind == context_kind::es31) GTEST_SKIP() << "OpenGL ES 3.1 has no geometry shaders";
  const auto rows = feedback_calibration(context::get().info().software);
  std::map<std::string, double> v;
  for (const auto& c : rows) {
    EXPECT_TRUE(std::isfinite(c.value) && c.value > 0) << c.name << " = " << c.value;
    EXPECT_FALSE(c.how.empty()) << c.name;
    v[c.name] = c.value;
  }
  for (const char* name : {"feedback_vertex_ns_4M", "feedback_geometry_all_ns_4M", "feedback_geometry_none_ns_4M",
                           "feedback_vertex_points_per_ns", "feedback_geometry_points_per_ns"})
    EXPECT_TRUE(v.contains(name)) << name;
  EXPECT_DOUBLE_EQ(v["feedback_vertex_points_per_ns"], 4194304.0 / v["feedback_vertex_ns_4M"]);
  EXPECT_DOUBLE_EQ(v["feedback_geometry_points_per_ns"], 4194304.0 / v["feedback_geometry_all_ns_4M"]);
  context::get().check("feedback calibration");
}

} // namespace
} // namespace winnow::gl
