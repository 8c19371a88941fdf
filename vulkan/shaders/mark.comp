#version 460
// The mark pass of removal-list cases as a scatter: invocation i writes payload 0 at index R[i] of
// the stream (the graphics pipeline draws a point there instead).
#include "compute.glsl"
#include "mark_args.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.extent) return;
  args.dst.v[load0(i)] = 0u;
}
