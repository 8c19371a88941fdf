// EXPERIMENT (2026-11-27e): see concat_pairs.vert; the pair's other element may belong to the block
// before or after, whose own rectangle writes it.
#include "concat_args.glsl"
WINNOW_VARYING(0) flat in uint v_block;
WINNOW_VARYING(1) flat in uint v_off;
WINNOW_VARYING(2) flat in uint v_cnt;
layout(location = 0) out uint o_value;
void main() {
  uint y = uint(gl_FragCoord.y);
  uint t = ((((y >> 1u) << args.out_log2w) + uint(gl_FragCoord.x)) << 1u) | (y & 1u);
  if (t < v_off || t - v_off >= v_cnt) discard;
  o_value = load2(v_block * args.block + (t - v_off));
}
