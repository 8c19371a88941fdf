// The HistoPyramid's traversal (Ziegler et al. 2006; docs/algorithms.md, "HistoPyramid"): output k
// below the apex's count descends from the apex (level `levels`, one texel), at each level taking the
// first child square, in the order (0,0), (1,0), (0,1), (1,1), whose counts reach past k and
// subtracting the counts of the ones before; on the stream, the square is one word: the k-th survivor
// in the pyramid's order. Input 0 is the stream, input 1 the pyramid (level p: (W >> p)², W = 2^in1_log2w).
WINNOW_ARGS(uint levels; uint stream_height;)
WINNOW_CONSTANT(2, levels) // compiled in on Vulkan, as Binary-Tree's block size (args.hpp)
uint hp_flag(uint x, uint y) { return y < args.stream_height ? uint(load0((y << args.in0_log2w) | x) != 0u) : 0u; }
// The count of child square (x, y) on level C: the stream's flag at C = 0.
#define HP_COUNT(C, x, y) ((C) == 0u ? hp_flag((x), (y)) : load_level1((C), ((y) << (args.in1_log2w - (C))) | (x)))
// One level, written out for every constant level L (12 … 1) and skipped above the apex: the graphics
// paths then index their array of level samplers by constants (bt_traverse.glsl says why). The three
// counts fetched do not wait on each other; the fourth child takes what is left.
#define HP_STEP(L)                                                                                     \
  if (WINNOW_CONST(levels) >= (L)) {                                                                   \
    uint cx = 2u * x, cy = 2u * y;                                                                     \
    uint a = HP_COUNT((L) - 1u, cx, cy), b = HP_COUNT((L) - 1u, cx + 1u, cy),                          \
         c = HP_COUNT((L) - 1u, cx, cy + 1u);                                                          \
    if (k < a) {                                                                                       \
      x = cx;                                                                                          \
      y = cy;                                                                                          \
    } else if (k < a + b) {                                                                            \
      k -= a;                                                                                          \
      x = cx + 1u;                                                                                     \
      y = cy;                                                                                          \
    } else if (k < a + b + c) {                                                                        \
      k -= a + b;                                                                                      \
      x = cx;                                                                                          \
      y = cy + 1u;                                                                                     \
    } else {                                                                                           \
      k -= a + b + c;                                                                                  \
      x = cx + 1u;                                                                                     \
      y = cy + 1u;                                                                                     \
    }                                                                                                  \
  }
uint pass_main(uint i, inout uint trips) {
  if (i >= load_level1(WINNOW_CONST(levels), 0u)) return 0u;
  uint k = i, x = 0u, y = 0u;
  HP_STEP(12u) HP_STEP(11u) HP_STEP(10u) HP_STEP(9u) HP_STEP(8u) HP_STEP(7u)
  HP_STEP(6u) HP_STEP(5u) HP_STEP(4u) HP_STEP(3u) HP_STEP(2u) HP_STEP(1u)
  return load0((y << args.in0_log2w) | x);
}
