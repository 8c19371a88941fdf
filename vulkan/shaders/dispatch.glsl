// What every winnow compute shader shares: buffers addressed by pointer (buffer device address),
// constant 0 as the local size, and the linear workgroup and invocation indices.
#extension GL_EXT_buffer_reference : require
layout(local_size_x_id = 0) in;
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ro_u32 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer rw_u32 { uint v[]; };
// Workgroups past maxComputeWorkGroupCount[0] are dispatched as x × y (sequence::dispatch).
uint group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint invocation_index() { return group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }
