#version 450 core
// One Hillis-Steele pass within segments of u_seg texels of a row: out[i] = in[i] + in[i - o] when
// i - o is in the same segment (ALGORITHMS.md §2). Pass 0 reads the data through u_map (Horn fuses
// the flag extraction into it).
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) uniform int u_offset;
layout(location = 1) uniform int u_seg;
layout(location = 2) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint r = apply_map(texelFetch(u_in, p, 0).r, u_map);
  if ((p.x & (u_seg - 1)) >= u_offset) r += apply_map(texelFetch(u_in, p - ivec2(u_offset, 0), 0).r, u_map);
  o_value = r;
}
