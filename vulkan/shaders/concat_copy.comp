#version 460
// Concatenation without a rasterizer, copy form (docs/algorithms.md, "Block concatenation"): one
// workgroup per block b copies its cnt[b] survivors to [off[b], off[b] + cnt[b]) of the output,
// coalesced. The local size is at most B.
#include "compute.glsl"
#include "concat_args.glsl"
void main() {
  uint b = group_index();
  if (b >= args.blocks) return;
  uint off = load0(b), cnt = load1(b);
  for (uint k = gl_LocalInvocationID.x; k < cnt; k += gl_WorkGroupSize.x) args.dst.v[off + k] = load2(b * args.block + k);
}
