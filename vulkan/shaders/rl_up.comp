#version 460
// RLZ modified up-sweep (M09 Alg. 3; ALGORITHMS.md §6b): the right child is added only when the
// left child is full, so US_p[i] = the run length from its leftmost leaf, clipped to its subtree.
// a = US_{p-1} (the data through map k2 when p = 1), k0 = 2^(p-1), k1 = B.
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint l = mapped(args.a, 2u * i, args.k2, args.k1);
  args.dst.v[i] = l == args.k0 ? l + mapped(args.a, 2u * i + 1u, args.k2, args.k1) : l;
}
