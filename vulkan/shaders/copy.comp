#version 460
// The copy pass of `winnow calibrate --api vk`: invocation i copies element i of WIDTH 32-bit words
// (1, 2 or 4: 4-, 8- or 16-byte accesses) with one load and one store.
#include "dispatch.glsl"
layout(constant_id = 1) const uint WIDTH = 1u;
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer ro_x2 { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ro_x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer rw_x2 { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer rw_x4 { uvec4 v[]; };
layout(push_constant, std430) uniform copy_args {
  ro_u32 src;
  rw_u32 dst;
  uint count; // elements of WIDTH words
} args;
void main() {
  uint i = invocation_index();
  if (i >= args.count) return;
  if (WIDTH == 1u) args.dst.v[i] = args.src.v[i];
  else if (WIDTH == 2u) rw_x2(args.dst).v[i] = ro_x2(args.src).v[i];
  else rw_x4(args.dst).v[i] = ro_x4(args.src).v[i];
}
