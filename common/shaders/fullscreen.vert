// One triangle that covers the viewport: (-1,-1), (3,-1), (-1,3).
void main() {
  vec2 p = vec2(float((WINNOW_VERTEX_INDEX << 1) & 2), float(WINNOW_VERTEX_INDEX & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
