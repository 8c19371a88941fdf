#version 460
// vk/ballot phase 2 (offsets): the exclusive scan of the P subgroup counts by one workgroup (P is
// small: n / (S·ITEMS)); dst[P] = the total, read back by result(). Each invocation sums a run of
// consecutive counts, the workgroup scans the sums, each run is written.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "dispatch.glsl"
layout(push_constant, std430) uniform ballot_scan_args {
  ro_u32 counts;
  rw_u32 offsets; // P + 1 words: the exclusive scan, then the total
  uint ranges;    // P
} args;
shared uint sums[1024]; // one per subgroup: at most 1024 invocations, subgroups of ≥ 1
void main() {
  const uint P = args.ranges, T = gl_WorkGroupSize.x, t = gl_LocalInvocationID.x;
  const uint per = (P + T - 1u) / T, begin = min(t * per, P), end = min(begin + per, P);
  uint sum = 0u;
  for (uint i = begin; i < end; ++i) sum += args.counts.v[i];
  uint inclusive = subgroupInclusiveAdd(sum);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sums[gl_SubgroupID] = inclusive;
  barrier();
  if (t == 0u) { // ≤ 1024 / S subgroup totals: a short serial scan
    uint run = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      uint v = sums[s];
      sums[s] = run;
      run += v;
    }
  }
  barrier();
  uint offset = sums[gl_SubgroupID] + inclusive - sum;
  for (uint i = begin; i < end; ++i) {
    uint c = args.counts.v[i];
    args.offsets.v[i] = offset;
    offset += c;
  }
  if (t == T - 1u) args.offsets.v[P] = offset; // the last run ends at P: offset is the total
}
