// Output word t = off[b] + k takes element k of block b's compacted run (input 2).
#include "concat_args.glsl"
WINNOW_VARYING(0) flat in uint v_block;
WINNOW_VARYING(1) flat in uint v_off;
layout(location = 0) out uint o_value;
void main() {
  uint t = (uint(gl_FragCoord.y) << args.out_log2w) + uint(gl_FragCoord.x);
  o_value = load2(v_block * args.block + (t - v_off));
}
