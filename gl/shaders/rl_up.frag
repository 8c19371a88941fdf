#version 450 core
// RLZ up-sweep (M09 Alg. 3, ALGORITHMS.md §6b): a node holds the run length starting at its leftmost
// leaf, clipped to its subtree: the right child counts only when the left child is full.
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) uniform int u_half; // leaves under a child: 2^(p-1)
layout(location = 1) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint left = apply_map(texelFetch(u_in, ivec2(2 * p.x, p.y), 0).r, u_map);
  o_value = left == uint(u_half) ? left + apply_map(texelFetch(u_in, ivec2(2 * p.x + 1, p.y), 0).r, u_map) : left;
}
