#version 460
// vk/ballot phase 1 (count): each subgroup counts the valid elements of its range, reading 16 bytes
// per lane per step (order does not matter here), and writes one count per subgroup range.
#include "ballot_common.glsl"
layout(push_constant, std430) uniform ballot_count_args {
  ro_u32x4 data;  // the stream (padded to whole workgroups)
  rw_u32 counts;  // one per subgroup range
  uint groups;    // workgroups that do work
} args;
void main() {
  if (group_index() >= args.groups) return;
  const uint q = subgroup_range(), S = gl_SubgroupSize, steps = ITEMS * WORDS / 4u;
  ro_u32x4 src = args.data;
  uint first = q * S * steps + gl_SubgroupInvocationID, count = 0u;
  for (uint r = 0u; r < steps; ++r) {
    uvec4 w = src.v[first + r * S];
    if (WORDS == 1u) count += uint(w.x != 0u) + uint(w.y != 0u) + uint(w.z != 0u) + uint(w.w != 0u);
    else if (WORDS == 2u) count += uint(w.x != 0u) + uint(w.z != 0u);
    else count += uint(w.x != 0u);
  }
  count = subgroupAdd(count);
  if (subgroupElect()) args.counts.v[q] = count;
}
