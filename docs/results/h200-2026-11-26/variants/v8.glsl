// Binary-Tree traversal within a block (M09 Alg. 5; docs/algorithms.md, "Binary-Tree"): output c
// descends from its block's root, taking the left child when c < lo + (the left child's count):
// exactly log2 B levels; the leaf reached is the c-th valid element. Input 0 is the stream (level 0,
// whose count is the valid flag); input 1 the pyramid of valid counts, level p holding the count of
// words [j·2^p, (j + 1)·2^p) at j.
WINNOW_ARGS(uint block; uint log2_block;)
// One level of the descent, written out for every constant level L (11 … 1, B ≤ 2048) and skipped
// above the block's root: the graphics paths then index their array of level samplers by constants,
// which costs no selection per level (a loop counter would, and Vulkan allows indexing that array by
// a variable only with an optional feature).
#define BT_COUNT(L, j) ((L) == 1u ? uint(load0(j) != 0u) : load_level1((L) - 1u, (j)))
#define BT_STEP(L)                                                                                     \
  if (7u >= (L)) {                                                                        \
    uint left = 2u * node, n = BT_COUNT(L, left);                                                      \
    if (c < lo + n) node = left;                                                                       \
    else {                                                                                             \
      lo += n;                                                                                         \
      node = left + 1u;                                                                                \
    }                                                                                                  \
    ++trips;                                                                                           \
  }
uint pass_main(uint i, inout uint trips) {
  uint root = i >> 7u, c = i & (128u - 1u);
  if (c >= load_level1(7u, root)) return 0u;
  uint node = root, lo = 0u;
  BT_STEP(11u) BT_STEP(10u) BT_STEP(9u) BT_STEP(8u) BT_STEP(7u) BT_STEP(6u)
  BT_STEP(5u) BT_STEP(4u) BT_STEP(3u) BT_STEP(2u) BT_STEP(1u)
  return load0(node);
}
