#version 450 core
// Binary-Tree traversal within a block (ALGORITHMS.md §7): output i < v_b descends from the block's
// root, choosing the left child when i < lo + (left count), exactly log2 B levels; the leaf reached
// is the i-th valid element. Level 0 is the stream itself (count = valid flag); level p (1 ≤ p ≤
// log2 B) holds in texel (x, y) the valid count of stream texels [x·2^p, (x+1)·2^p) of row y.
layout(binding = 0) uniform usampler2D u_level[12];
layout(location = 0) uniform int u_block;
layout(location = 1) uniform int u_log2_block;
layout(location = 0) out uint o_value;
#ifdef WINNOW_LOOP_CHECK
layout(location = 1) out uint o_trips;
#endif
uint count_at(int level, int x, int y) {
  uint v = texelFetch(u_level[level], ivec2(x, y), 0).r;
  return level == 0 ? uint(v != 0u) : v;
}
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int root = p.x >> u_log2_block;
  uint i = uint(p.x & (u_block - 1));
  int trips = 0;
  if (i >= texelFetch(u_level[u_log2_block], ivec2(root, p.y), 0).r) {
    o_value = 0u;
  } else {
    int node = root;
    uint lo = 0u;
    for (int level = u_log2_block - 1; level >= 0; --level, ++trips) {
      int left = 2 * node;
      uint c = count_at(level, left, p.y);
      if (i < lo + c) node = left;
      else { lo += c; node = left + 1; }
    }
    o_value = texelFetch(u_level[0], ivec2(node, p.y), 0).r;
  }
#ifdef WINNOW_LOOP_CHECK
  o_trips = uint(trips);
#endif
}
