#version 450 core
// Row totals of a row-segmented inclusive scan, as a stream of their own: out[j] = in[W-1, j].
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) uniform int u_log2w_out;
layout(location = 1) uniform int u_count;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int j = (p.y << u_log2w_out) + p.x;
  o_value = j < u_count ? texelFetch(u_in, ivec2(textureSize(u_in, 0).x - 1, j), 0).r : 0u;
}
