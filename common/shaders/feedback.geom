// gl/geometry's geometry stage: a point in, a point out only where its word is valid (non-zero).
// Transform feedback writes the emitted values in the order of their input points, so the capture
// buffer holds the survivors compacted and in order (a stable compaction).
layout(points) in;
layout(points, max_vertices = 1) out;
flat in uint v_value[];
flat out uint f_value;
void main() {
  if (v_value[0] != 0u) {
    f_value = v_value[0];
    gl_Position = vec4(0.0);
    EmitVertex();
    EndPrimitive();
  }
}
