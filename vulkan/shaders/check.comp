#version 460
// The check of a result where it lies (vulkan/src/device_check.hpp): invocation i compares output
// element i (at i, or where concat=stacks put it) with the expected stream (stable) or marks it in a bitmap of the values seen (unstable:
// a value not expected, or seen twice, is wrong), checks that the element's other words are
// element_word of its payload (wide.hpp), and compares input element i after the run with the input
// as generated. A difference sets a flag; the host reads back the flags only.
#include "dispatch.glsl"
layout(push_constant, std430) uniform check_args {
  ro_u32 result;        // count elements of `words` words, the payload first
  ro_u32 expected;      // stable: the expected stream
  ro_u32 expected_bits; // unstable: the expected values' bitmap (values ≤ top)
  rw_u32 seen_bits;     // unstable: zeroed; each output value sets its bit
  ro_u32 input_after;   // out of place: the input after the run (`words` per element)
  ro_u32 pristine;      // the input as generated, n elements of one word
  ro_u32 removed_bits;  // the removal list's indices, where the case has one
  rw_u32 flags;         // check_flag words, zeroed
  uint count;
  uint words;
  uint top;
  uint n;
  uint mode;  // check_mode bits
  uint log2w; // mode_stacks: the output's width, log2
} args;
// vulkan/src/device_check.cpp names the same bits and words.
const uint mode_stable = 1u, mode_input = 2u, mode_removals = 4u, mode_stacks = 8u;
const uint wrong_values = 0u, torn_elements = 1u, changed_inputs = 2u;

bool bit_of(ro_u32 bits, uint v) { return ((bits.v[v >> 5] >> (v & 31u)) & 1u) != 0u; }

// wide.cpp's element_word.
uint element_word(uint x, uint k) {
  if (k == 1u) return x * 0x9E3779B1u;
  if (k == 2u) return x ^ 0xA5A5A5A5u;
  return ~x;
}

// Where output element t lies: at t, or in stacks of 8 rows (concat=stacks: plan.hpp's stack_position).
uint position(uint t) {
  if ((args.mode & mode_stacks) == 0u) return t;
  uint stack = t >> 3u, band = stack >> args.log2w;
  return (((band << 3u) + (t & 7u)) << args.log2w) | (stack & ((1u << args.log2w) - 1u));
}

void main() {
  uint i = invocation_index();
  if (i < args.count) {
    uint at = position(i) * args.words;
    uint v = args.result.v[at];
    for (uint k = 1u; k < args.words; ++k)
      if (args.result.v[at + k] != element_word(v, k)) atomicOr(args.flags.v[torn_elements], 1u);
    if ((args.mode & mode_stable) != 0u) {
      if (v != args.expected.v[i]) atomicOr(args.flags.v[wrong_values], 1u);
    } else if (v > args.top || !bit_of(args.expected_bits, v)) {
      atomicOr(args.flags.v[wrong_values], 1u); // never expected
    } else {
      uint bit = 1u << (v & 31u);
      if ((atomicOr(args.seen_bits.v[v >> 5], bit) & bit) != 0u) atomicOr(args.flags.v[wrong_values], 1u); // twice
    }
  }
  if ((args.mode & mode_input) != 0u && i < args.n) {
    uint after = args.input_after.v[i * args.words];
    bool removed = (args.mode & mode_removals) != 0u && bit_of(args.removed_bits, i);
    // A mark phase may write payload 0 at a removed index.
    if (after != args.pristine.v[i] && !(after == 0u && removed)) atomicOr(args.flags.v[changed_inputs], 1u);
  }
}
