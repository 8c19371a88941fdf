// The mark pass of removal-list cases: one point per index of R (input 0), at the centre of that
// word of the stream, so the fragment's 0 lands exactly there (a scatter by rasterization).
#include "mark_args.glsl"
void main() {
  uint i = load0(uint(WINNOW_VERTEX_INDEX));
  uint w = 1u << args.out_log2w;
  vec2 centre = vec2(float(i & (w - 1u)), float(i >> args.out_log2w)) + 0.5;
  vec2 size = vec2(float(w), float(args.out_height));
  gl_Position = vec4((2.0 * centre - size) / size, 0.0, 1.0);
  gl_PointSize = 1.0;
}
