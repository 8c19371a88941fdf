#version 460
// Concatenation without a rasterizer (ALGORITHMS.md §8(d)), copy form: one workgroup per block b
// copies its cnt[b] survivors to [off[b], off[b] + cnt[b]) of the output, coalesced.
// a = off, b = cnt, c = the compacted blocks, k0 = blocks. Constant 1 = B (local size ≤ B).
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
void main() {
  uint b = group_index();
  if (b >= args.k0) return;
  uint off = args.a.v[b], cnt = args.b.v[b];
  for (uint k = gl_LocalInvocationID.x; k < cnt; k += gl_WorkGroupSize.x) args.dst.v[off + k] = args.c.v[b * B + k];
}
