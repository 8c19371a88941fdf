// EXPERIMENT (2026-11-27e): concat=pairs generalized to stacks of G = 2^LG rows: output word t at
// column (t >> LG) mod W of band (t >> LG) div W, row G·band + (t mod G); a block's run is one or two
// rectangles G rows high. Drawn by the pairs pipeline (triangles, 12 vertices a block).
#include "concat_args.glsl"
WINNOW_VARYING(0) flat out uint v_block;
WINNOW_VARYING(1) flat out uint v_off;
WINNOW_VARYING(2) flat out uint v_cnt;
void main() {
  const uint G = 1u << LG;
  uint b = uint(WINNOW_VERTEX_INDEX / 12);
  int k = WINNOW_VERTEX_INDEX % 12;
  int segment = k / 6, corner = k % 6;
  uint off = load0(b), cnt = load1(b);
  uint first = off >> LG, len = cnt > 0u ? ((off + cnt + G - 1u) >> LG) - first : 0u;
  uint w = 1u << args.out_log2w, row = first >> args.out_log2w, x0 = first & (w - 1u), end = x0 + len;
  uint xs = segment == 0 ? x0 : 0u;
  uint xe = segment == 0 ? min(end, w) : (end > w ? end - w : 0u);
  row += uint(segment);
  float y = float(G * row);
  const ivec2 rect[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  vec2 pos = vec2(float(rect[corner].x != 0 ? xe : xs), y + float(G) * float(rect[corner].y));
  vec2 size = vec2(float(w), float(args.out_height));
  gl_Position = xe <= xs ? vec4(-2.0, -2.0, 0.0, 1.0) : vec4((2.0 * pos - size) / size, 0.0, 1.0);
  v_block = b;
  v_off = off;
  v_cnt = cnt;
}
