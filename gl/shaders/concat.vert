#version 450 core
// Concatenation by rendering (ALGORITHMS.md §8): block b's cnt survivors go to [off, off + cnt) of
// the output, which crosses at most one row boundary since cnt ≤ B ≤ Wout: segment 0 on row r from
// x0, segment 1 on row r + 1 from 0. Lines: 4 vertices per block (2 segments × 2 ends); rectangles:
// 12 (2 segments × 2 triangles). Empty segments are moved outside the viewport (a zero-length line
// may still produce a fragment on some rasterizers).
layout(binding = 0) uniform usampler2D u_offsets;
layout(binding = 1) uniform usampler2D u_counts;
layout(location = 0) uniform int u_rects;
layout(location = 1) uniform int u_log2w_counts;
layout(location = 2) uniform int u_log2w_out;
layout(location = 3) uniform ivec2 u_size_out;
flat out uint v_block;
flat out uint v_off;
void main() {
  int per_block = u_rects != 0 ? 12 : 4;
  uint b = uint(gl_VertexID / per_block);
  int k = gl_VertexID % per_block;
  int segment = k / (per_block / 2), corner = k % (per_block / 2);
  uint off = fetch_linear(u_offsets, b, u_log2w_counts), cnt = fetch_linear(u_counts, b, u_log2w_counts);
  uint w = uint(u_size_out.x), row = off >> uint(u_log2w_out), x0 = off & (w - 1u), end = x0 + cnt;
  uint xs = segment == 0 ? x0 : 0u;
  uint xe = segment == 0 ? min(end, w) : (end > w ? end - w : 0u);
  row += uint(segment);
  // Lines: corner 0 → start, 1 → end, on the row's centre. Rectangles: two triangles over
  // [xs, xe) × [row, row + 1): corners (0,0) (1,0) (0,1) (1,0) (1,1) (0,1).
  const ivec2 rect[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  vec2 pos = u_rects != 0 ? vec2(float(rect[corner].x != 0 ? xe : xs), float(row) + float(rect[corner].y))
                          : vec2(float(corner == 0 ? xs : xe), float(row) + 0.5);
  gl_Position = xe <= xs ? vec4(-2.0, -2.0, 0.0, 1.0)
                         : vec4((2.0 * pos - vec2(u_size_out)) / vec2(u_size_out), 0.0, 1.0);
  v_block = b;
  v_off = off;
}
