// Shared by every winnow compute shader. Buffers are addressed by pointer (buffer device address),
// so every pass takes the same push constants (pipeline.hpp pass_args); streams are plain uint
// arrays, element i at index i, padding past n invalid (payload 0). Constant 0 is the local size.
#extension GL_EXT_buffer_reference : require
layout(local_size_x_id = 0) in;
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ro_u32 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer rw_u32 { uint v[]; };
layout(push_constant, std430) uniform pass_args {
  ro_u32 a, b, c; // inputs
  rw_u32 dst;     // output: an invocation writes only its own element (gather only)
  rw_u32 trips;   // loop trip counts, only with the LOOP_CHECK constant
  uint n;         // invocations (or workgroups) that do work
  uint k0, k1, k2;
} args;

// Workgroups past maxComputeWorkGroupCount[0] are dispatched as x × y (sequence::dispatch).
uint group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint invocation_index() { return group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

// value_map of scan.hpp: what a scan's first pass applies to each value it reads.
const uint map_identity = 0u, map_invalid = 1u, map_valid = 2u, map_run_start = 3u;
// run_start (RLZ's filter, ALGORITHMS.md §6c): RL[i] where a run starts inside its segment of
// `seg` elements (its first element, or RL[i-1] = 0), else 0.
uint mapped(ro_u32 buf, uint i, uint map, uint seg) {
  uint v = buf.v[i];
  if (map == map_identity) return v;
  if (map == map_invalid) return uint(v == 0u);
  if (map == map_valid) return uint(v != 0u);
  return (v != 0u && ((i & (seg - 1u)) == 0u || buf.v[i - 1u] == 0u)) ? v : 0u;
}
