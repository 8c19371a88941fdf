#version 450 core
// RLZ run lengths by modified recursive doubling (M09 Alg. 2, ALGORITHMS.md §6a): after the pass with
// offset o, RL[i] = min(run of invalid elements starting at i, 2o), runs cut at the block's end.
// Pass 0 reads the stream through u_map (invalid flag).
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) uniform int u_offset;
layout(location = 1) uniform int u_block;
layout(location = 2) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint r = apply_map(texelFetch(u_in, p, 0).r, u_map);
  if (r == uint(u_offset) && (p.x & (u_block - 1)) + u_offset < u_block)
    r = uint(u_offset) + apply_map(texelFetch(u_in, p + ivec2(u_offset, 0), 0).r, u_map);
  o_value = r;
}
