#version 460
// Concatenation without a rasterizer, copy form (docs/algorithms.md, "Block concatenation"): a
// workgroup copies the survivors of GROUP_BLOCKS consecutive blocks, block b's cnt[b] words to
// [off[b], off[b] + cnt[b]), coalesced. Block and group are compiled in (constants 2 and 3), so the
// loop over the group's GROUP_BLOCKS · BLOCK words has a known trip count and its loads can overlap.
// (One workgroup a block left most invocations idle at small blocks and took 32K workgroups at
// 4M / B = 128, whose launches and dependent loads made this pass 2.5× as long as at B = 512.)
#include "compute.glsl"
#include "concat_args.glsl"
layout(constant_id = 2) const uint BLOCK = 1u;
layout(constant_id = 3) const uint GROUP_BLOCKS = 1u;
void main() {
  const uint first = group_index() * GROUP_BLOCKS;
  for (uint p = gl_LocalInvocationID.x; p < GROUP_BLOCKS * BLOCK; p += gl_WorkGroupSize.x) {
    uint b = first + p / BLOCK, k = p % BLOCK;
    if (b >= args.blocks) return; // b only grows with p
    if (k < load1(b)) args.dst.v[load0(b) + k] = load2(b * BLOCK + k);
  }
}
