// One step of Horn's search per pass, as Horn (GPU Gems 2, 2005) ran it on hardware without loops
// (docs/algorithms.md, "Horn"): pass k of log2 B adds step = B / 2^(k+1) to output c's distance d
// where P[c + d + step] > d + step, so after the last pass d is the largest distance with
// P[c + d] > d, as the one-pass loop (horn_search.glsl) finds it. Input 0: d so far (not read by the
// first pass), input 1: P, the in-block inclusive scan of the invalid flags. Writes d; 0 where the
// output takes its own element (P[c] = 0) or lies past the block's survivors.
WINNOW_ARGS(uint block; uint step; uint first;)
uint pass_main(uint i, inout uint trips) {
  uint B = args.block, base = i & ~(B - 1u), c = i - base;
  uint z = load1(base + B - 1u);
  if (c >= B - z || load1(i) == 0u) return 0u;
  uint d = args.first != 0u ? 0u : load0(i);
  uint s = args.step;
  if (d + s <= z && load1(i + d + s) > d + s) d += s;
  return d;
}
