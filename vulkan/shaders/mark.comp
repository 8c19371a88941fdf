#version 460
// The mark phase of removal-list cases: invocation i writes payload 0 at index R[i] of the stream
// (a scatter, as GL's points). a = R, dst = the stream, k0 = words per element (vk/ballot widens).
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  args.dst.v[args.a.v[i] * args.k0] = 0u;
}
