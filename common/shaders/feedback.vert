// gl/geometry's vertex stage: vertex i fetches word i of the stream (a W-wide R32UI texture) and
// hands it to the geometry stage. No position: the rasterizer is off, transform feedback keeps what
// the geometry stage emits. gl calibrate also links it alone, capturing v_value of every vertex (the
// draw without its geometry stage). GL only (OpenGL ES 3.1 has no geometry shaders).
uniform highp usampler2D u_stream;
uniform uint u_log2w;
flat out uint v_value;
void main() {
  uint i = uint(gl_VertexID);
  v_value = texelFetch(u_stream, ivec2(int(i & ((1u << u_log2w) - 1u)), int(i >> u_log2w)), 0).r;
  gl_Position = vec4(0.0);
}
