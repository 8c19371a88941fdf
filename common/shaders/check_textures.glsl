// The check of a result where it lies on OpenGL (gl/src/device_check.cpp), a compute shader (GL 4.3,
// ES 3.1): check.glsl over the output and the stream as the passes left them in textures, and the
// case's words in one storage buffer (ES 3.1 promises a compute shader four): the expected stream,
// the input as generated and the two bitmaps at offsets the uniforms give.
layout(local_size_x = 256) in;
layout(binding = 0) uniform highp usampler2D u_result;
layout(binding = 1) uniform highp usampler2D u_stream;
layout(std430, binding = 0) readonly buffer case_block { uint case_words[]; };
layout(std430, binding = 1) buffer scratch_block { uint scratch[]; }; // the flags, then the values seen
uniform uint u_count, u_top, u_n, u_mode, u_log2w, u_pristine_at, u_bits_at, u_removed_at; // the expected stream at 0
const uint seen_at = 4u; // gl/src/device_check.cpp's
#define CHECK_COUNT u_count
#define CHECK_WORDS 1u
#define CHECK_TOP u_top
#define CHECK_N u_n
#define CHECK_MODE u_mode
#define CHECK_LOG2W u_log2w
uint result_word(uint position, uint k) {
  uint w = uint(textureSize(u_result, 0).x);
  return texelFetch(u_result, ivec2(int(position % w), int(position / w)), 0).r;
}
uint expected_value(uint i) { return case_words[i]; }
bool is_expected(uint v) { return ((case_words[u_bits_at + (v >> 5)] >> (v & 31u)) & 1u) != 0u; }
bool seen_before(uint v) {
  uint bit = 1u << (v & 31u);
  return (atomicOr(scratch[seen_at + (v >> 5)], bit) & bit) != 0u;
}
uint input_after(uint i) {
  uint w = uint(textureSize(u_stream, 0).x);
  return texelFetch(u_stream, ivec2(int(i % w), int(i / w)), 0).r;
}
uint pristine_value(uint i) { return case_words[u_pristine_at + i]; }
bool is_removed(uint i) { return ((case_words[u_removed_at + (i >> 5)] >> (i & 31u)) & 1u) != 0u; }
void raise_flag(uint which) { atomicOr(scratch[which], 1u); }
#include "check.glsl"
void main() {
  // Workgroups past GL_MAX_COMPUTE_WORK_GROUP_COUNT[0] are dispatched as x × y.
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  check_element(group * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
}
