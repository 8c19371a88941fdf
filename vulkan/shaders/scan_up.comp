#version 460
// Blelloch up-sweep (ALGORITHMS.md §3), also the Binary-Tree's reduction (§7):
// U_p[i] = U_{p-1}[2i] + U_{p-1}[2i+1]. a = U_{p-1}, dst = U_p, k1 = seg, k2 = map (first level).
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  args.dst.v[i] = mapped(args.a, 2u * i, args.k2, args.k1) + mapped(args.a, 2u * i + 1u, args.k2, args.k1);
}
