#version 460
// Concatenation without a rasterizer (ALGORITHMS.md §8(d)), search form: one invocation per output
// element t binary-searches the exclusive block offsets for the last block b with off[b] ≤ t, then
// takes element t − off[b] of block b's compacted run. Invocations with t ≥ v write nothing.
// a = off, b = cnt, c = the compacted blocks, k0 = blocks. Constant 1 = B.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
void main() {
  uint t = invocation_index();
  if (t >= args.n) return;
  uint nb = args.k0;
  if (t >= args.a.v[nb - 1u] + args.b.v[nb - 1u]) return;
  uint lo = 0u, hi = nb - 1u; // invariant: off[lo] ≤ t, and the answer is in [lo, hi]
  for (uint k = 0u; k < 32u && lo < hi; ++k) {
    uint mid = (lo + hi + 1u) >> 1;
    if (args.a.v[mid] <= t) lo = mid;
    else hi = mid - 1u;
  }
  args.dst.v[t] = args.c.v[lo * B + (t - args.a.v[lo])];
}
