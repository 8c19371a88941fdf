// Concatenation by rendering (docs/algorithms.md, "Block concatenation"): block b's cnt survivors go
// to [off, off + cnt) of the output, which crosses at most one row boundary since cnt ≤ B ≤ W:
// segment 0 on row r from x0, segment 1 on row r + 1 from 0. Lines: 4 vertices per block (2 segments ×
// 2 ends), on the row's centre; rectangles: 12 (2 segments × 2 triangles). Stacks (method 5): the same
// rectangles, 8 rows high, over the stacks [off / 8, ⌈(off + cnt) / 8⌉) of an output laid out in
// stacks of 8 words (plan.hpp stack_position: a stack is a column of an 8-row band; a run of at most
// B / 8 + 2 ≤ W stacks crosses at most one band boundary). Empty segments are moved outside the
// viewport (a zero-length line may still produce a fragment on some rasterizers).
#include "concat_args.glsl"
WINNOW_VARYING(0) flat out uint v_block;
WINNOW_VARYING(1) flat out uint v_off;
WINNOW_VARYING(2) flat out uint v_cnt;
const uint LOG2_STACK = 3u; // plan.hpp log2_stack_rows
void main() {
  bool stacks = args.method == 5u, rects = args.method == 1u || stacks;
  int per_block = rects ? 12 : 4;
  uint b = uint(WINNOW_VERTEX_INDEX / per_block);
  int k = WINNOW_VERTEX_INDEX % per_block;
  int segment = k / (per_block / 2), corner = k % (per_block / 2);
  uint off = load0(b), cnt = load1(b);
  // In stacks, the run's first stack and how many stacks it touches; else its first word and length.
  uint g = stacks ? LOG2_STACK : 0u;
  uint first = off >> g, len = cnt > 0u ? ((off + cnt + (1u << g) - 1u) >> g) - first : 0u;
  uint w = 1u << args.out_log2w, row = first >> args.out_log2w, x0 = first & (w - 1u), end = x0 + len;
  uint xs = segment == 0 ? x0 : 0u;
  uint xe = segment == 0 ? min(end, w) : (end > w ? end - w : 0u);
  row += uint(segment);
  float y = float(row << g), height = float(1u << g);
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
