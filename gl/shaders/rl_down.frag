#version 450 core
// RLZ down-sweep (M09 Alg. 4, ALGORITHMS.md §6b): DS_p[j] is the length of the invalid run that
// starts just after node j's range. The root's is 0 (u_top); a right child copies its parent; a left
// child takes its right sibling's up-sweep value, plus the parent's when that sibling is full. The
// last pass (u_final) turns DS_0 into RL[i] = invalid ? 1 + DS_0[i] : 0 (shift-free form).
layout(binding = 0) uniform usampler2D u_parent; // DS_{p+1}
layout(binding = 1) uniform usampler2D u_up;     // US_p (the stream, mapped, when p = 0)
layout(location = 0) uniform int u_top;
layout(location = 1) uniform int u_size; // leaves under a level-p node: 2^p
layout(location = 2) uniform int u_final;
layout(location = 3) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint parent = u_top != 0 ? 0u : texelFetch(u_parent, ivec2(p.x >> 1, p.y), 0).r;
  uint ds = parent;
  if ((p.x & 1) == 0) {
    uint t = apply_map(texelFetch(u_up, p + ivec2(1, 0), 0).r, u_map);
    ds = t == uint(u_size) ? t + parent : t;
  }
  if (u_final != 0) ds = apply_map(texelFetch(u_up, p, 0).r, u_map) != 0u ? 1u + ds : 0u;
  o_value = ds;
}
