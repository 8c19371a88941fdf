// RLZ forward search within a block (M09 Alg. 1; docs/algorithms.md, "RLZ"): from d = pRL[c],
// iterate d ← pRL[c + d] to the fixed point, which is the displacement of output c's source. Input 1
// is pRL, the in-block inclusive scan of the run lengths kept at run starts. Each trip passes at least
// one more invalid run: ≤ B/2 + 1 trips; `fast` takes two hops per trip, testing both values (M09's
// faster form), ≤ B/4 + 1. `cap` is that bound.
WINNOW_ARGS(uint block; uint cap; uint fast;)
uint pass_main(uint i, inout uint trips) {
  uint B = args.block, base = i & ~(B - 1u), c = i - base;
  uint z = load1(base + B - 1u);
  if (c >= B - z) return 0u;
  uint d = load1(i);
  bool found = false;
  while (trips < args.cap) {
    ++trips;
    uint e = load1(i + d);
    if (e == d) { found = true; break; }
    if (args.fast != 0u) {
      uint f = load1(i + e);
      if (f == e) { d = e; found = true; break; }
      d = f;
    } else {
      d = e;
    }
  }
  if (!found) trips = args.cap + 1u; // cut by the cap: never, by the proof
  return load0(i + d);
}
