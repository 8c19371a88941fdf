// Shared by every winnow GL shader (inserted after #version). Streams live in R32UI textures of
// power-of-two width: element i at texel (i & (W-1), i >> log2W). Integer fetches only.
uint fetch_linear(usampler2D t, uint i, int log2w) {
  return texelFetch(t, ivec2(int(i & ((1u << uint(log2w)) - 1u)), int(i >> uint(log2w))), 0).r;
}
// value_map of scan.hpp: 0 identity, 1 invalid flag (payload 0), 2 valid flag.
uint apply_map(uint v, int map) { return map == 0 ? v : (map == 1 ? uint(v == 0u) : uint(v != 0u)); }
