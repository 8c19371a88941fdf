// RLZ modified up-sweep (M09 Alg. 3): a node holds the run length from its leftmost leaf, clipped to
// its subtree — the right child counts only when the left child is full (half_size = 2^(p−1)).
WINNOW_ARGS(uint half_size; uint map;)
#include "mapped.glsl"
uint pass_main(uint i, inout uint trips) {
  uint l = mapped0(2u * i, args.map, 1u);
  return l == args.half_size ? l + mapped0(2u * i + 1u, args.map, 1u) : l;
}
