// The adaptive algorithm's sample (sample.glsl's words, input 0) summed per region, the first half
// of its choice on the device (choose.glsl is the second): region r is the windows w with
// w · regions / windows = r, as sampling.cpp's estimate() groups them. Word 2r holds the region's
// valid count (low 16 bits) and its changes (high 16); word 2r + 1 its elements (low 16) and how many
// of its windows hold any (high 16), from which its neighbouring pairs follow. At most 256 windows
// of 32 elements a region: every sum fits its 16 bits.
WINNOW_ARGS(uint n; uint stride; uint span; uint windows; uint regions;)
uint pass_main(uint i, inout uint trips) {
  uint r = i >> 1;
  uint first = (r * args.windows + args.regions - 1u) / args.regions;
  uint last = ((r + 1u) * args.windows + args.regions - 1u) / args.regions;
  uint low = 0u, high = 0u;
  for (uint w = first; w < last; ++w) {
    if ((i & 1u) == 0u) {
      uint word = load0(w);
      low += word & 0xffffu;
      high += word >> 16;
    } else {
      uint start = w * args.stride;
      if (start < args.n) {
        low += min(args.span, args.n - start);
        high += 1u;
      }
    }
  }
  return low | (high << 16);
}
