// Output word t = off[b] + k takes element k of block b's compacted run (input 2). In stacks (method 5)
// t is the fragment's place in the stacks (plan.hpp stack_position), and the run's first or last stack
// may hold words of the blocks before or after it: their own rectangles write them.
#include "concat_args.glsl"
WINNOW_VARYING(0) flat in uint v_block;
WINNOW_VARYING(1) flat in uint v_off;
WINNOW_VARYING(2) flat in uint v_cnt;
layout(location = 0) out uint o_value;
const uint LOG2_STACK = 3u; // plan.hpp log2_stack_rows
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  bool stacks = args.method == 5u;
  uint t = stacks ? ((((y >> LOG2_STACK) << args.out_log2w) + x) << LOG2_STACK) | (y & ((1u << LOG2_STACK) - 1u))
                  : (y << args.out_log2w) + x;
  if (stacks && t - v_off >= v_cnt) discard; // before the run wraps around: unsigned
  o_value = load2(v_block * args.block + (t - v_off));
}
