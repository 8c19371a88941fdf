#version 450 core
// The mark phase for removal-list cases: one point per index of R, at the centre of that texel of
// the stream, so the fragment shader's 0 lands exactly there (a scatter by rasterization).
layout(binding = 0) uniform usampler2D u_removals;
layout(location = 0) uniform int u_log2w_removals;
layout(location = 1) uniform int u_log2w;
layout(location = 2) uniform ivec2 u_size;
void main() {
  uint i = fetch_linear(u_removals, uint(gl_VertexID), u_log2w_removals);
  vec2 centre = vec2(float(i & ((1u << uint(u_log2w)) - 1u)), float(i >> uint(u_log2w))) + 0.5;
  gl_Position = vec4((2.0 * centre - vec2(u_size)) / vec2(u_size), 0.0, 1.0);
  gl_PointSize = 1.0;
}
