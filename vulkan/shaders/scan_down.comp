#version 460
// Blelloch down-sweep, gather form (ALGORITHMS.md §3): D_{p-1}[j] = D_p[j>>1] + (j odd ? U_{p-1}[j-1] : 0),
// D = 0 at every segment's root (k0 bit 0: top). The last pass (k0 bit 1) adds U_0[j] itself, so the
// result is inclusive. a = D_p, b = U_{p-1} (the data when p-1 = 0, read through map k2), k1 = seg.
#include "common.glsl"
void main() {
  uint j = invocation_index();
  if (j >= args.n) return;
  uint r = (args.k0 & 1u) != 0u ? 0u : args.a.v[j >> 1];
  if ((j & 1u) != 0u) r += mapped(args.b, j - 1u, args.k2, args.k1);
  if ((args.k0 & 2u) != 0u) r += mapped(args.b, j, args.k2, args.k1);
  args.dst.v[j] = r;
}
