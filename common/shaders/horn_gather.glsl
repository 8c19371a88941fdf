// The gather that ends Horn's search by passes (horn_step.glsl): output c < v_b takes x[c + d + 1]
// where its own element is invalid (P[c] > 0), x[c] otherwise. Input 0: x, 1: P, 2: d.
WINNOW_ARGS(uint block;)
uint pass_main(uint i, inout uint trips) {
  uint B = args.block, base = i & ~(B - 1u), c = i - base;
  uint z = load1(base + B - 1u);
  if (c >= B - z) return 0u;
  uint d = load1(i) != 0u ? load2(i) + 1u : 0u;
  return load0(i + d);
}
