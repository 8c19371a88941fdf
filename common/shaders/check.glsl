// The check of a result where it lies, written once for every API (vulkan/shaders/check.comp over
// buffers, check_textures.glsl over GL's textures): for output element i and input element i, the
// verdict of winnow::verify on the host — output element i against the expected stream (stable) or
// the set of expected values (unstable: a value not expected, or seen twice, is wrong), its other
// words element_word of its payload (vulkan/src/wide.cpp), and the input after the run against the
// input as generated (payload 0 may be written at a removed index: a mark pass). A difference raises
// a flag; the host reads back the flags only.
//
// The API's prologue defines, before including this file:
//   CHECK_COUNT, CHECK_WORDS, CHECK_TOP, CHECK_N, CHECK_MODE, CHECK_LOG2W  the values (uint)
//   uint result_word(uint position, uint k)  word k of the output element stored at `position`
//   uint expected_value(uint i)              element i of the expected stream (stable)
//   bool is_expected(uint v)                 whether v is an expected value (unstable; v ≤ CHECK_TOP)
//   bool seen_before(uint v)                 marks v as seen; whether it was already
//   uint input_after(uint i)                 the payload of input element i after the run
//   uint pristine_value(uint i)              input element i as generated
//   bool is_removed(uint i)                  whether the removal list holds i
//   void raise_flag(uint which)              sets flag `which`
// The C++ of each API names the same mode bits and flags.
const uint mode_stable = 1u, mode_input = 2u, mode_removals = 4u, mode_stacks = 8u;
const uint wrong_values = 0u, torn_elements = 1u, changed_inputs = 2u;

uint element_word(uint x, uint k) {
  if (k == 1u) return x * 0x9E3779B1u;
  if (k == 2u) return x ^ 0xA5A5A5A5u;
  return ~x;
}

// Where output element t lies: at t, or in stacks of 8 rows (concat=stacks: plan.hpp's stack_position).
uint output_position(uint t) {
  if ((CHECK_MODE & mode_stacks) == 0u) return t;
  uint stack = t >> 3u, band = stack >> CHECK_LOG2W;
  return (((band << 3u) + (t & 7u)) << CHECK_LOG2W) | (stack & ((1u << CHECK_LOG2W) - 1u));
}

void check_element(uint i) {
  if (i < CHECK_COUNT) {
    uint at = output_position(i);
    uint v = result_word(at, 0u);
    for (uint k = 1u; k < CHECK_WORDS; ++k)
      if (result_word(at, k) != element_word(v, k)) raise_flag(torn_elements);
    if ((CHECK_MODE & mode_stable) != 0u) {
      if (v != expected_value(i)) raise_flag(wrong_values);
    } else if (v > CHECK_TOP || !is_expected(v) || seen_before(v)) {
      raise_flag(wrong_values); // never expected, or twice
    }
  }
  if ((CHECK_MODE & mode_input) != 0u && i < CHECK_N) {
    uint after = input_after(i);
    bool removed = (CHECK_MODE & mode_removals) != 0u && is_removed(i);
    if (after != pristine_value(i) && !(after == 0u && removed)) raise_flag(changed_inputs);
  }
}
