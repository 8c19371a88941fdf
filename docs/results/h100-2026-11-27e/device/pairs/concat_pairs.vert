// EXPERIMENT (2026-11-27e): the concatenation's output laid out in pairs — element t at column
// (t >> 1) mod W of the band (t >> 1) div W, row 2·band + (t & 1) — so that a block's span is a
// rectangle two rows high and the rasterizer's 2×2 quads are full (one row high they are half empty).
// Rectangles only (12 vertices per block, as concat=rects draws them).
#include "concat_args.glsl"
WINNOW_VARYING(0) flat out uint v_block;
WINNOW_VARYING(1) flat out uint v_off;
WINNOW_VARYING(2) flat out uint v_cnt;
void main() {
  uint b = uint(WINNOW_VERTEX_INDEX / 12);
  int k = WINNOW_VERTEX_INDEX % 12;
  int segment = k / 6, corner = k % 6;
  uint off = load0(b), cnt = load1(b);
  uint p0 = off >> 1u, p1 = cnt == 0u ? p0 : (off + cnt + 1u) >> 1u;
  uint w = 1u << args.out_log2w, band = p0 >> args.out_log2w, x0 = p0 & (w - 1u), end = x0 + (p1 - p0);
  uint xs = segment == 0 ? x0 : 0u;
  uint xe = segment == 0 ? min(end, w) : (end > w ? end - w : 0u);
  uint row = 2u * (band + uint(segment));
  const ivec2 rect[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  vec2 pos = vec2(float(rect[corner].x != 0 ? xe : xs), float(row) + 2.0 * float(rect[corner].y));
  vec2 size = vec2(float(w), float(args.out_height));
  gl_Position = xe <= xs ? vec4(-2.0, -2.0, 0.0, 1.0) : vec4((2.0 * pos - size) / size, 0.0, 1.0);
  v_block = b;
  v_off = off;
  v_cnt = cnt;
}
