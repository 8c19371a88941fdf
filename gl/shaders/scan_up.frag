#version 450 core
// Blelloch up-sweep (ALGORITHMS.md §3): U_p[i] = U_{p-1}[2i] + U_{p-1}[2i+1], per row. Also the
// Binary-Tree's reduction (§7) with u_map = valid flag on the first level.
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  o_value = apply_map(texelFetch(u_in, ivec2(2 * p.x, p.y), 0).r, u_map) +
            apply_map(texelFetch(u_in, ivec2(2 * p.x + 1, p.y), 0).r, u_map);
}
