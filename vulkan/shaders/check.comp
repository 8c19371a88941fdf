#version 460
// The check of a result where it lies on Vulkan (vulkan/src/device_check.hpp): common/shaders/check.glsl
// over buffers addressed by pointer, one invocation an element.
#include "dispatch.glsl"
layout(push_constant, std430) uniform check_args {
  ro_u32 result;        // count elements of `words` words, the payload first
  ro_u32 expected;      // stable: the expected stream
  ro_u32 expected_bits; // unstable: the expected values' bitmap (values ≤ top)
  rw_u32 seen_bits;     // unstable: zeroed; each output value sets its bit
  ro_u32 input_after;   // out of place: the input after the run (`words` per element)
  ro_u32 pristine;      // the input as generated, n elements of one word
  ro_u32 removed_bits;  // the removal list's indices, where the case has one
  rw_u32 flags;         // check.glsl's flags, zeroed
  uint count;
  uint words;
  uint top;
  uint n;
  uint mode;  // check.glsl's mode bits
  uint log2w; // mode_stacks: the output's width, log2
} args;
#define CHECK_COUNT args.count
#define CHECK_WORDS args.words
#define CHECK_TOP args.top
#define CHECK_N args.n
#define CHECK_MODE args.mode
#define CHECK_LOG2W args.log2w
uint result_word(uint position, uint k) { return args.result.v[position * args.words + k]; }
uint expected_value(uint i) { return args.expected.v[i]; }
bool is_expected(uint v) { return ((args.expected_bits.v[v >> 5] >> (v & 31u)) & 1u) != 0u; }
bool seen_before(uint v) {
  uint bit = 1u << (v & 31u);
  return (atomicOr(args.seen_bits.v[v >> 5], bit) & bit) != 0u;
}
uint input_after(uint i) { return args.input_after.v[i * args.words]; }
uint pristine_value(uint i) { return args.pristine.v[i]; }
bool is_removed(uint i) { return ((args.removed_bits.v[i >> 5] >> (i & 31u)) & 1u) != 0u; }
void raise_flag(uint which) { atomicOr(args.flags.v[which], 1u); }
#include "check.glsl"
void main() { check_element(invocation_index()); }
