// OpenGL's conditional rendering for the adaptive algorithm's choice on the device (the GL
// executor's predicate_on): one fragment into a 1 × 1 target, kept only where word u_word of input 0
// (a stream u_log2w wide) is not 0. An occlusion query counts it, and glBeginConditionalRender skips
// the passes drawn under that query when it counted none. Vulkan reads the word itself
// (VK_EXT_conditional_rendering) and needs no such pass.
uniform uint u_word;
uniform uint u_log2w;
layout(location = 0) out uint o_value;
void main() {
  if (fetch(u_in0, u_word, u_log2w) == 0u) discard;
  o_value = 1u;
}
