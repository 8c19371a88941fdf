#version 460
// Horn's gather-search within a block (ALGORITHMS.md §4). b = P, the in-block inclusive scan of the
// invalid flags; output c < v_b = B − z_b takes x[c + d] for the smallest d with P[c+d] ≤ d.
// g(d) = P[c+d] − d is non-increasing, so binary lifting finds the last d with P[c+d] > d in
// ⌈log2(z_b + 1)⌉ ≤ log2 B steps; d + 1 is the answer (and a valid element). a = x, dst = the
// blockwise-compacted stream. Constants: 1 = B, 2 = log2 B (the loop's cap), 3 = loop check.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
layout(constant_id = 2) const uint LOG2_B = 5u;
layout(constant_id = 3) const bool LOOP_CHECK = false;
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint base = i & ~(B - 1u), c = i - base;
  uint z = args.b.v[base + B - 1u];
  uint trips = 0u, value = 0u;
  if (c < B - z) {
    uint d = 0u;
    if (args.b.v[i] != 0u) {
      uint step = 1u << findMSB(z); // z ≥ 1 here
      for (; trips < LOG2_B && step > 0u; ++trips, step >>= 1)
        if (d + step <= z && args.b.v[i + d + step] > d + step) d += step;
      if (step > 0u) trips = LOG2_B + 1u; // cut by the cap: never, by the proof
      d += 1u;
    }
    value = args.a.v[i + d];
  }
  args.dst.v[i] = value;
  if (LOOP_CHECK) args.trips.v[i] = trips;
}
