#version 450 core
// RLZ filter (ALGORITHMS.md §6c): keep each run's length at its first element only (the block's
// first element starts a run too), so the scan of F counts every run once.
layout(binding = 0) uniform usampler2D u_runs;
layout(location = 0) uniform int u_block;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint r = texelFetch(u_runs, p, 0).r;
  bool first = (p.x & (u_block - 1)) == 0 || texelFetch(u_runs, p - ivec2(1, 0), 0).r == 0u;
  o_value = first ? r : 0u;
}
