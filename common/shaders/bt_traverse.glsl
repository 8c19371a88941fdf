// Binary-Tree traversal within a block (M09 Alg. 5; docs/algorithms.md, "Binary-Tree"): output c
// descends from its block's root, taking the left child when c < lo + (the left child's count):
// exactly log2 B levels; the leaf reached is the c-th valid element. Input 0 is the stream (level 0,
// whose count is the valid flag); input 1 the pyramid of valid counts, level p holding the count of
// words [j·2^p, (j + 1)·2^p) at j.
//
// The walk takes two levels per step: the left child's count and both grandchildren's left counts are
// three independent fetches, so the chain of fetches that wait on each other is about half as long as
// one level per step (5 instead of 9 at B = 128). The descent is the same: every decision compares c
// with the same count as the one-level walk, and each output still makes log2 B trips. Measured on the
// GPU, the one-level walk on GL was bound by that chain, not by the bytes it reads; on Vulkan, what
// bound it were the steps' guards below (docs/algorithms.md).
WINNOW_ARGS(uint block; uint log2_block;)
// Both are the same for the whole pass; on Vulkan, as compiled-in constants, they decide at compile time
// which of the steps below run (measured on an H200: the Vulkan fragment traversal 1.11-1.19× faster than
// with the steps guarded by arguments, docs/algorithms.md).
WINNOW_CONSTANT(2, block) WINNOW_CONSTANT(3, log2_block)
#define BT_BLOCK WINNOW_CONST(block)
#define BT_LOG2 WINNOW_CONST(log2_block)
// Written out for every constant level L (11 … 3) and skipped unless the walk is at L: the graphics
// paths then index their array of level samplers by constants, which costs no selection per level (a
// loop counter would, and Vulkan allows indexing that array by a variable only with an optional
// feature). A step starts at log2 B and every second level below it.
#define BT_STEP2(L)                                                                                    \
  if (BT_LOG2 >= (L) && ((BT_LOG2 - (L)) & 1u) == 0u) {                                                \
    uint left = load_level1((L) - 1u, 2u * node), ll = load_level1((L) - 2u, 4u * node),               \
         rl = load_level1((L) - 2u, 4u * node + 2u);                                                   \
    if (c < lo + left) node = 4u * node;                                                               \
    else {                                                                                             \
      lo += left;                                                                                      \
      ll = rl;                                                                                         \
      node = 4u * node + 2u;                                                                           \
    }                                                                                                  \
    if (c >= lo + ll) {                                                                                \
      lo += ll;                                                                                        \
      node += 1u;                                                                                      \
    }                                                                                                  \
    trips += 2u;                                                                                       \
  }
// The last one or two levels end on the stream itself: the leaves' values are both their counts (valid
// or not) and the output, so they are fetched together with the counts above them.
uint bt_pick(uint c, uint lo, uint a, uint b) { return c < lo + uint(a != 0u) ? a : b; }
uint pass_main(uint i, inout uint trips) {
  uint root = i >> BT_LOG2, c = i & (BT_BLOCK - 1u);
  if (c >= load_level1(BT_LOG2, root)) return 0u;
  uint node = root, lo = 0u;
  BT_STEP2(11u) BT_STEP2(10u) BT_STEP2(9u) BT_STEP2(8u) BT_STEP2(7u) BT_STEP2(6u)
  BT_STEP2(5u) BT_STEP2(4u) BT_STEP2(3u)
  if ((BT_LOG2 & 1u) == 1u) { // at level 1: two leaves
    trips += 1u;
    return bt_pick(c, lo, load0(2u * node), load0(2u * node + 1u));
  }
  // at level 2: the left child's count and four leaves
  uint left = load_level1(1u, 2u * node), w0 = load0(4u * node), w1 = load0(4u * node + 1u),
       w2 = load0(4u * node + 2u), w3 = load0(4u * node + 3u);
  trips += 2u;
  return c < lo + left ? bt_pick(c, lo, w0, w1) : bt_pick(c, lo + left, w2, w3);
}
