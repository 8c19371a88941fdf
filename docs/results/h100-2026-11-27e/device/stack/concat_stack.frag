// EXPERIMENT (2026-11-27e): see concat_stack.vert.
#include "concat_args.glsl"
WINNOW_VARYING(0) flat in uint v_block;
WINNOW_VARYING(1) flat in uint v_off;
WINNOW_VARYING(2) flat in uint v_cnt;
layout(location = 0) out uint o_value;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  uint t = ((((y >> LG) << args.out_log2w) + x) << LG) | (y & ((1u << LG) - 1u));
  if (t - v_off >= v_cnt) discard;
  o_value = load2(v_block * args.block + (t - v_off));
}
