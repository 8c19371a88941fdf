#version 460
// RLZ forward search within a block (M09 Alg. 1; ALGORITHMS.md §6d): from d = pRL[c], iterate
// d ← pRL[c + d] to the fixed point, which is the displacement of output c. pRL is the in-block
// inclusive scan of the run lengths kept at run starts. Constant 4 = FAST: two hops per loop trip,
// testing both fetched values (M09 reports ~20% from it). a = x, b = pRL, dst = compacted blocks.
// Constants: 1 = B, 2 = the trip bound (plain ⌈B/2⌉ + 1, fast half of it), 3 = loop check, 4 = FAST.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
layout(constant_id = 2) const uint BOUND = 17u;
layout(constant_id = 3) const bool LOOP_CHECK = false;
layout(constant_id = 4) const bool FAST = false;
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint base = i & ~(B - 1u), c = i - base;
  uint z = args.b.v[base + B - 1u];
  uint trips = 0u, value = 0u;
  if (c < B - z) {
    uint d = args.b.v[i];
    bool found = false;
    while (trips < BOUND) {
      ++trips;
      uint e = args.b.v[i + d];
      if (e == d) { found = true; break; }
      if (FAST) {
        uint f = args.b.v[i + e];
        if (f == e) { d = e; found = true; break; }
        d = f;
      } else {
        d = e;
      }
    }
    if (!found) trips = BOUND + 1u; // cut by the cap: never, by the proof
    value = args.a.v[i + d];
  }
  args.dst.v[i] = value;
  if (LOOP_CHECK) args.trips.v[i] = trips;
}
