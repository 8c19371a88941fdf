#version 460
// vk/ballot phase 3 (move): each subgroup walks its range S elements at a time, in order; the
// ballot of the valid lanes packs them (compactSIMD by POPC: lane → popc(mask below it)), the
// packed elements go to j, and j advances by popc(mask). Four steps' loads are issued before their
// ballots. Stable; out of place.
#include "ballot_common.glsl"
layout(push_constant, std430) uniform ballot_move_args {
  ro_u32 data;    // the stream
  ro_u32 offsets; // exclusive, one per subgroup range
  rw_u32 out_;    // the output
  uint groups;    // workgroups that do work
} args;
uint payload(uint e) { return e; }
uint payload(uvec2 e) { return e.x; }
uint payload(uvec4 e) { return e.x; }
#define WINNOW_MOVE(T, RO, RW)                                                                                         \
  {                                                                                                                    \
    RO src = RO(args.data);                                                                                               \
    RW dst = RW(args.out_);                                                                                             \
    for (uint r = 0u; r < ITEMS; r += 4u) {                                                                            \
      T e[4];                                                                                                          \
      for (uint u = 0u; u < 4u; ++u) e[u] = src.v[first + (r + u) * S];                                               \
      for (uint u = 0u; u < 4u; ++u) {                                                                                 \
        bool keep = payload(e[u]) != 0u;                                                                               \
        uvec4 mask = subgroupBallot(keep);                                                                             \
        if (keep) dst.v[j + subgroupBallotExclusiveBitCount(mask)] = e[u];                                             \
        j += subgroupBallotBitCount(mask);                                                                             \
      }                                                                                                                \
    }                                                                                                                  \
  }
void main() {
  if (group_index() >= args.groups) return;
  const uint q = subgroup_range(), S = gl_SubgroupSize;
  const uint first = q * S * ITEMS + gl_SubgroupInvocationID;
  uint j = args.offsets.v[q];
  if (WORDS == 1u) WINNOW_MOVE(uint, ro_u32, rw_u32)
  else if (WORDS == 2u) WINNOW_MOVE(uvec2, ro_u32x2, rw_u32x2)
  else WINNOW_MOVE(uvec4, ro_u32x4, rw_u32x4)
}
