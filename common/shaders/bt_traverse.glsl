// Binary-Tree traversal within a block (M09 Alg. 5; docs/algorithms.md, "Binary-Tree"): output c
// descends from its block's root, taking the left child when c < lo + (the left child's count):
// exactly log2 B levels; the leaf reached is the c-th valid element. Input 0 is the stream (level 0,
// whose count is the valid flag); input 1 the pyramid of valid counts, level p holding the count of
// words [j·2^p, (j + 1)·2^p) at j.
WINNOW_ARGS(uint block; uint log2_block;)
uint level_count(uint level, uint node) { return level == 0u ? uint(load0(node) != 0u) : load_level1(level, node); }
uint pass_main(uint i, inout uint trips) {
  uint root = i >> args.log2_block, c = i & (args.block - 1u);
  if (c >= level_count(args.log2_block, root)) return 0u;
  uint node = root, lo = 0u;
  for (uint level = args.log2_block; level > 0u; --level, ++trips) {
    uint left = 2u * node, n = level_count(level - 1u, left);
    if (c < lo + n) node = left;
    else {
      lo += n;
      node = left + 1u;
    }
  }
  return load0(node);
}
