// Horn's gather-search within a block (docs/algorithms.md, "Horn"). Input 1 is P, the in-block
// inclusive scan of the invalid flags; output c < v_b = B − z_b takes x[c + d] for the smallest d
// with P[c + d] ≤ d. g(d) = P[c + d] − d never increases, so binary lifting finds the last d with
// P[c + d] > d in ⌈log2(z_b + 1)⌉ ≤ log2 B steps; d + 1 is the answer. `cap` = log2 B bounds the
// loop; a loop cut by it reports cap + 1 trips (never, by the proof).
WINNOW_ARGS(uint block; uint cap;)
uint pass_main(uint i, inout uint trips) {
  uint B = args.block, base = i & ~(B - 1u), c = i - base;
  uint z = load1(base + B - 1u);
  if (c >= B - z) return 0u;
  uint d = 0u;
  if (load1(i) != 0u) {
    uint step = 1u << winnow_find_msb(z); // z ≥ 1 here
    for (; trips < args.cap && step > 0u; ++trips, step >>= 1)
      if (d + step <= z && load1(i + d + step) > d + step) d += step;
    if (step > 0u) trips = args.cap + 1u;
    d += 1u;
  }
  return load0(i + d);
}
