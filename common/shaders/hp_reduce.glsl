// One level of the HistoPyramid (Ziegler et al. 2006; docs/algorithms.md, "HistoPyramid"): texel
// (x, y) of level p holds the valid count of its four children (2x + dx, 2y + dy) on level p − 1.
// Input 0 is level p − 1, or the stream when `first` (its valid flags, rows from src_height on
// counting nothing: the stream's W × H is the base of a W × W square).
WINNOW_ARGS(uint first; uint src_height;)
uint hp_count(uint x, uint y) {
  if (y >= args.src_height) return 0u;
  uint v = load0((y << args.in0_log2w) | x);
  return args.first != 0u ? uint(v != 0u) : v;
}
uint pass_main(uint i, inout uint trips) {
  uint x = 2u * (i & ((1u << args.out_log2w) - 1u)), y = 2u * (i >> args.out_log2w);
  return hp_count(x, y) + hp_count(x + 1u, y) + hp_count(x, y + 1u) + hp_count(x + 1u, y + 1u);
}
