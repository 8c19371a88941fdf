// A gather pass on the graphics pipeline: one fragment per output word, at linear index
// y · W + x; with WINNOW_LOOP_CHECK a second target takes the trips of the pass's loop.
layout(location = 0) out uint o_value;
#ifdef WINNOW_LOOP_CHECK
layout(location = 1) out uint o_trips;
#endif
void main() {
  uint i = (uint(gl_FragCoord.y) << args.out_log2w) | uint(gl_FragCoord.x);
  uint trips = 0u;
  o_value = pass_main(i, trips);
#ifdef WINNOW_LOOP_CHECK
  o_trips = trips;
#endif
}
