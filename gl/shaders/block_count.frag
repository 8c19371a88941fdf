#version 450 core
// One count per block, as a stream of nb values: block j = (bx, y), bx = j mod (W/B).
// u_mode 0: B − the block's last inclusive scan of invalid flags; 1: texel (bx, y) of a per-block texture.
layout(binding = 0) uniform usampler2D u_source;
layout(location = 0) uniform int u_mode;
layout(location = 1) uniform int u_blocks;
layout(location = 2) uniform int u_log2w_counts;
layout(location = 3) uniform int u_log2_blocks_per_row;
layout(location = 4) uniform int u_block;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int j = (p.y << u_log2w_counts) + p.x;
  if (j >= u_blocks) { o_value = 0u; return; }
  int bx = j & ((1 << u_log2_blocks_per_row) - 1), y = j >> u_log2_blocks_per_row;
  o_value = u_mode == 0 ? uint(u_block) - texelFetch(u_source, ivec2(bx * u_block + u_block - 1, y), 0).r
                        : texelFetch(u_source, ivec2(bx, y), 0).r;
}
