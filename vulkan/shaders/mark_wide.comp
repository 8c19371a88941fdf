#version 460
// The mark phase of vk/ballot and vk/lookback on removal-list cases: invocation i writes payload 0
// into word 0 of element R[i] (elements of `words` 32-bit words).
#include "dispatch.glsl"
layout(push_constant, std430) uniform mark_wide_args {
  ro_u32 removals;
  rw_u32 data;
  uint count; // |R|
  uint words; // per element
} args;
void main() {
  uint i = invocation_index();
  if (i >= args.count) return;
  args.data.v[args.removals.v[i] * args.words] = 0u;
}
