// Concatenation by rendering (docs/algorithms.md, "Block concatenation"): block b's cnt survivors go
// to [off, off + cnt) of the output, which crosses at most one row boundary since cnt ≤ B ≤ W:
// segment 0 on row r from x0, segment 1 on row r + 1 from 0. Lines: 4 vertices per block (2 segments ×
// 2 ends), on the row's centre; rectangles: 12 (2 segments × 2 triangles). Pairs (method 5): the same
// rectangles, two rows high, over the pairs [off / 2, ⌈(off + cnt) / 2⌉) of an output laid out in pairs
// (plan.hpp pair_position: a pair is a column of a two-row band, a run of at most B / 2 + 1 ≤ W pairs
// crosses at most one band boundary). Empty segments are moved outside the viewport (a zero-length line
// may still produce a fragment on some rasterizers).
#include "concat_args.glsl"
WINNOW_VARYING(0) flat out uint v_block;
WINNOW_VARYING(1) flat out uint v_off;
WINNOW_VARYING(2) flat out uint v_cnt;
void main() {
  bool pairs = args.method == 5u, rects = args.method == 1u || pairs;
  int per_block = rects ? 12 : 4;
  uint b = uint(WINNOW_VERTEX_INDEX / per_block);
  int k = WINNOW_VERTEX_INDEX % per_block;
  int segment = k / (per_block / 2), corner = k % (per_block / 2);
  uint off = load0(b), cnt = load1(b);
  // In pairs, the run's first pair and how many pairs it touches; else its first word and length.
  uint first = pairs ? off >> 1u : off, len = pairs && cnt > 0u ? ((off + cnt + 1u) >> 1u) - first : cnt;
  uint w = 1u << args.out_log2w, row = first >> args.out_log2w, x0 = first & (w - 1u), end = x0 + len;
  uint xs = segment == 0 ? x0 : 0u;
  uint xe = segment == 0 ? min(end, w) : (end > w ? end - w : 0u);
  row += uint(segment);
  float y = pairs ? 2.0 * float(row) : float(row), height = pairs ? 2.0 : 1.0;
  // Rectangles: two triangles over [xs, xe) × [y, y + height): corners (0,0) (1,0) (0,1) (1,0) (1,1) (0,1).
  const ivec2 rect[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  vec2 pos = rects ? vec2(float(rect[corner].x != 0 ? xe : xs), y + height * float(rect[corner].y))
                   : vec2(float(corner == 0 ? xs : xe), y + 0.5);
  vec2 size = vec2(float(w), float(args.out_height));
  gl_Position = xe <= xs ? vec4(-2.0, -2.0, 0.0, 1.0) : vec4((2.0 * pos - size) / size, 0.0, 1.0);
  v_block = b;
  v_off = off;
  v_cnt = cnt;
}
