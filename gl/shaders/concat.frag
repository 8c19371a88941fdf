#version 450 core
// Output texel t = off[b] + k takes element k of block b's compacted run.
layout(binding = 2) uniform usampler2D u_compacted;
layout(location = 2) uniform int u_log2w_out;
layout(location = 4) uniform int u_block;
flat in uint v_block;
flat in uint v_off;
layout(location = 0) out uint o_value;
void main() {
  uint t = (uint(gl_FragCoord.y) << uint(u_log2w_out)) + uint(gl_FragCoord.x);
  o_value = fetch_linear(u_compacted, v_block * uint(u_block) + (t - v_off), u_log2w_out);
}
