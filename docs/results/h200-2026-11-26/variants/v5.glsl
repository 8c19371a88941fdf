// EXPERIMENT (B = 128 only): three levels per step, from level 7 and level 4, then the two leaves.
WINNOW_ARGS(uint block; uint log2_block;)
#define BT_STEP3(L)                                                                                    \
  {                                                                                                    \
    uint a = load_level1((L) - 1u, 2u * node);                                                         \
    uint b0 = load_level1((L) - 2u, 4u * node), b1 = load_level1((L) - 2u, 4u * node + 2u);            \
    uint d0 = load_level1((L) - 3u, 8u * node), d1 = load_level1((L) - 3u, 8u * node + 2u),            \
         d2 = load_level1((L) - 3u, 8u * node + 4u), d3 = load_level1((L) - 3u, 8u * node + 6u);      \
    uint n2 = 2u * node;                                                                               \
    if (c >= lo + a) { lo += a; n2 += 1u; b0 = b1; d0 = d2; d1 = d3; }                                 \
    uint n3 = 2u * n2;                                                                                 \
    if (c >= lo + b0) { lo += b0; n3 += 1u; d0 = d1; }                                                 \
    node = 2u * n3;                                                                                    \
    if (c >= lo + d0) { lo += d0; node += 1u; }                                                        \
    trips += 3u;                                                                                       \
  }
uint bt_pick(uint c, uint lo, uint a, uint b) { return c < lo + uint(a != 0u) ? a : b; }
uint pass_main(uint i, inout uint trips) {
  uint root = i >> 7u, c = i & 127u;
  if (c >= load_level1(7u, root)) return 0u;
  uint node = root, lo = 0u;
  BT_STEP3(7u) BT_STEP3(4u)
  trips += 1u;
  return bt_pick(c, lo, load0(2u * node), load0(2u * node + 1u));
}
