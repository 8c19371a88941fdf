// Jumping Jack within a block (docs/algorithms.md, "Jumping Jack"). Input 1 is P, the in-block
// inclusive scan of the invalid flags, v_b = B − z_b. A valid element already in [0, v_b) stays; a
// hole follows MAS[p] = B − P[p] — a bijection of the invalid positions onto the tail [v_b, B) —
// until it lands on a valid element. The walks visit distinct invalid elements: ≤ z_b ≤ B − 1 hops
// (`cap`). Not stable.
WINNOW_ARGS(uint block; uint cap;)
uint pass_main(uint i, inout uint trips) {
  uint B = args.block, base = i & ~(B - 1u), c = i - base;
  uint z = load1(base + B - 1u);
  if (c >= B - z) return 0u;
  uint value = load0(i);
  uint p = c;
  while (value == 0u && trips < args.cap) {
    p = B - load1(base + p);
    ++trips;
    value = load0(base + p);
  }
  if (value == 0u) trips = args.cap + 1u; // cut by the cap: never, by the proof
  return value;
}
