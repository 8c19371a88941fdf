#version 450 core
// Exclusive result of a stream scan: inclusive in-row scan − the element + the exclusive scan of the
// row totals (when there is more than one row).
layout(binding = 0) uniform usampler2D u_inclusive;
layout(binding = 1) uniform usampler2D u_values;
layout(binding = 2) uniform usampler2D u_row_offsets;
layout(location = 0) uniform int u_has_rows;
layout(location = 1) uniform int u_log2w_rows;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint r = texelFetch(u_inclusive, p, 0).r - texelFetch(u_values, p, 0).r;
  if (u_has_rows != 0) r += fetch_linear(u_row_offsets, uint(p.y), u_log2w_rows);
  o_value = r;
}
