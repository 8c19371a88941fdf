// Output word t = off[b] + k takes element k of block b's compacted run (input 2). In pairs (method 5)
// t is the fragment's place in the pair layout (plan.hpp pair_position), and the run's first or last
// pair may hold a word of the block before or after it: that block's own rectangle writes it.
#include "concat_args.glsl"
WINNOW_VARYING(0) flat in uint v_block;
WINNOW_VARYING(1) flat in uint v_off;
WINNOW_VARYING(2) flat in uint v_cnt;
layout(location = 0) out uint o_value;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  bool pairs = args.method == 5u;
  uint t = pairs ? ((((y >> 1u) << args.out_log2w) + x) << 1u) | (y & 1u) : (y << args.out_log2w) + x;
  if (pairs && t - v_off >= v_cnt) discard; // before the run wraps around: unsigned
  o_value = load2(v_block * args.block + (t - v_off));
}
