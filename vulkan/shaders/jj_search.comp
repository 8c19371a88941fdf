#version 460
// Jumping Jack within a block (ALGORITHMS.md §5, our reconstruction, proved there): a valid element
// inside [0, v_b) stays; a hole follows MAS[p] = B − P[p] until it lands on a valid element of the
// tail [v_b, B). The walks are disjoint and each visits distinct invalid elements: ≤ z_b ≤ B − 1
// hops. a = x, b = P (in-block inclusive scan of invalid flags), dst = compacted blocks.
// Constants: 1 = B, 2 = the hop bound (B − 1), 3 = loop check.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
layout(constant_id = 2) const uint BOUND = 31u;
layout(constant_id = 3) const bool LOOP_CHECK = false;
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint base = i & ~(B - 1u), c = i - base;
  uint z = args.b.v[base + B - 1u];
  uint trips = 0u, value = 0u;
  if (c < B - z) {
    value = args.a.v[i];
    if (value == 0u) {
      uint p = c;
      bool found = false;
      while (trips < BOUND) {
        p = B - args.b.v[base + p];
        ++trips;
        value = args.a.v[base + p];
        if (value != 0u) { found = true; break; }
      }
      if (!found) trips = BOUND + 1u; // cut by the cap: never, by the proof
    }
  }
  args.dst.v[i] = value;
  if (LOOP_CHECK) args.trips.v[i] = trips;
}
