#version 460
// RLZ modified down-sweep (M09 Alg. 4; ALGORITHMS.md §6b): DS_p[j] = the length of the invalid run
// that starts just after node j. Odd j copies its parent; even j takes its right sibling's up-sweep
// value t, plus the parent's when the sibling is full (t = 2^p). The root of each block gets 0
// (k0 bit 0: top). The last pass (p = 0, k0 bit 1) writes RL[i] = inv[i] ? 1 + DS_0[i] : 0 directly
// (shift-free form, §6b). a = DS_{p+1}, b = US_p (the data through map k2 when p = 0), k1 = 2^p, k2 = map.
#include "common.glsl"
void main() {
  uint j = invocation_index();
  if (j >= args.n) return;
  uint parent = (args.k0 & 1u) != 0u ? 0u : args.a.v[j >> 1];
  uint r;
  if ((j & 1u) != 0u) r = parent;
  else {
    uint t = mapped(args.b, j + 1u, args.k2, 1u);
    r = t == args.k1 ? t + parent : t;
  }
  if ((args.k0 & 2u) != 0u) r = mapped(args.b, j, args.k2, 1u) != 0u ? 1u + r : 0u;
  args.dst.v[j] = r;
}
