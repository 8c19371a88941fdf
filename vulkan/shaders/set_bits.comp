#version 460
// Sets bit v of a bitmap for every value v of a list (vulkan/src/device_check.cpp: the expected
// values of an unstable result, the removal list's indices), and flags a value whose bit was set
// already: the expected values repeat, so they are a multiset the bitmap cannot hold.
#include "dispatch.glsl"
layout(push_constant, std430) uniform set_bits_args {
  ro_u32 values;
  rw_u32 bits;    // zeroed, 32 values a word
  rw_u32 repeats; // one word, zeroed: set to 1 where a value repeats
  uint count;
  uint limit;     // values past it mark nothing (a removal index past the stream, as on the host)
} args;
void main() {
  uint i = invocation_index();
  if (i >= args.count) return;
  uint v = args.values.v[i];
  if (v > args.limit) return;
  uint bit = 1u << (v & 31u);
  if ((atomicOr(args.bits.v[v >> 5], bit) & bit) != 0u) atomicOr(args.repeats.v[0], 1u);
}
