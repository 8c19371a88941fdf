// The concatenation draws horizontal lines from (x0, r + 0.5) to (x1, r + 0.5) in window
// coordinates and expects exactly the texels x0 … x1−1 of row r (ALGORITHMS.md §8 pitfall a).
// Implementations differ at line ends, so this checks every start column and every length, for lines
// and for the rectangle fallback, with the same arithmetic as concat.vert.
#include <gtest/gtest.h>

#include "winnow/gl/context.hpp"
#include "winnow/gl/objects.hpp"
#include "winnow/gl/pass.hpp"

namespace winnow::gl {
namespace {

// Line j of the W(W+1)/2 spans [x0, x1), 0 ≤ x0 < x1 ≤ W, goes to row j: vertex pulling from j.
const char* span_vertex = R"(#version 450 core
layout(location = 0) uniform int u_width;
layout(location = 1) uniform int u_rects;
flat out int v_row;
void main() {
  int per = u_rects != 0 ? 6 : 2;
  int j = gl_VertexID / per, corner = gl_VertexID % per;
  // j-th pair (x0, x1) in order of x0 then x1
  int x0 = 0, left = j;
  while (left >= u_width - x0) { left -= u_width - x0; ++x0; }
  int x1 = x0 + 1 + left;
  ivec2 size = ivec2(u_width, u_width * (u_width + 1) / 2);
  const ivec2 rect[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  vec2 pos = u_rects != 0 ? vec2(float(rect[corner].x != 0 ? x1 : x0), float(j) + float(rect[corner].y))
                          : vec2(float(corner == 0 ? x0 : x1), float(j) + 0.5);
  gl_Position = vec4((2.0 * pos - vec2(size)) / vec2(size), 0.0, 1.0);
  v_row = j;
}
)";
const char* span_fragment = R"(#version 450 core
flat in int v_row;
layout(location = 0) out uint o;
void main() { o = uint(v_row) + 1u; }
)";

void check_spans(int width, bool rects) {
  const int spans = width * (width + 1) / 2;
  const program p = program::from_source("span", span_vertex, span_fragment);
  const texture t(texel_format::r32ui, width, spans);
  const framebuffer f({&t});
  const GLuint zero = 0;
  glClearTexImage(t.id(), 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  pass_runner r; // fixes the pass state: no blending, depth, multisampling
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f.id());
  glViewport(0, 0, width, spans);
  glUseProgram(p.id());
  set(p, 0, width);
  set(p, 1, rects ? 1 : 0);
  glBindVertexArray(r.vertex_array_id());
  glDrawArrays(rects ? GL_TRIANGLES : GL_LINES, 0, spans * (rects ? 6 : 2));
  const auto texels = t.download(0, spans);
  int j = 0, bad = 0;
  std::string first;
  for (int x0 = 0; x0 < width; ++x0)
    for (int x1 = x0 + 1; x1 <= width; ++x1, ++j)
      for (int x = 0; x < width; ++x) {
        const bool want = x >= x0 && x < x1;
        const bool got = texels[static_cast<std::size_t>(j) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] != 0;
        if (want != got && bad++ == 0)
          first = "[" + std::to_string(x0) + ", " + std::to_string(x1) + ") texel " + std::to_string(x) +
                  (got ? " drawn" : " missing");
      }
  EXPECT_EQ(bad, 0) << (rects ? "rectangles" : "lines") << " of width " << width << ": first: " << first;
  context::get().check("rasterization test");
}

TEST(gl_rasterization, lines_cover_exactly_their_span_for_every_start_and_length) {
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason;
  check_spans(64, false);
  check_spans(128, false);
}

TEST(gl_rasterization, rectangles_cover_exactly_their_span_for_every_start_and_length) {
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason;
  check_spans(64, true);
  check_spans(128, true);
}

} // namespace
} // namespace winnow::gl
