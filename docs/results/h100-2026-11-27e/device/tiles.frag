#version 460
#include "graphics.glsl"
#include "bt_traverse.glsl"
layout(location = 0) out uint o_value;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  const uint TW = TW_VALUE; // 0, 4, 8, 16, 32: sed before glslc
  uint i;
  if (TW == 0u) i = (y << args.out_log2w) | x;
  else {
    uint th = BT_BLOCK / TW;
    uint b = (y / th) * ((1u << args.out_log2w) / TW) + x / TW;
    i = b * BT_BLOCK + (y % th) * TW + (x % TW);
  }
  uint trips = 0u;
  o_value = pass_main(i, trips);
}
