#version 460
// Binary-Tree traversal within a block (M09 Alg. 5; ALGORITHMS.md §7): output c < v_b descends from
// the block's root, taking the left child when c < lo + (left count): exactly log2 B levels; the
// leaf reached is the c-th valid element. a = x (level 0, count = valid flag), b = the pyramid:
// level p ≥ 1 (s >> p nodes, node j counts [j·2^p, (j+1)·2^p)) starts at word s − (s >> (p−1)).
// k0 = s. Constants: 1 = B, 2 = log2 B, 3 = loop check.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
layout(constant_id = 2) const uint LOG2_B = 5u;
layout(constant_id = 3) const bool LOOP_CHECK = false;
uint level_count(uint level, uint node) {
  if (level == 0u) return uint(args.a.v[node] != 0u);
  return args.b.v[args.k0 - (args.k0 >> (level - 1u)) + node];
}
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint root = i >> LOG2_B, c = i & (B - 1u);
  uint trips = 0u, value = 0u;
  if (c < level_count(LOG2_B, root)) {
    uint node = root, lo = 0u;
    for (uint level = LOG2_B; level > 0u; --level, ++trips) {
      uint left = 2u * node, n = level_count(level - 1u, left);
      if (c < lo + n) node = left;
      else { lo += n; node = left + 1u; }
    }
    value = args.a.v[node];
  }
  args.dst.v[i] = value;
  if (LOOP_CHECK) args.trips.v[i] = trips;
}
