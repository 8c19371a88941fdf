// The adaptive algorithm's sample (sample.glsl's words) summed per region, in two passes of 16 loads
// an output word (a constant bound the compiler unrolls: the loads are in flight together, where one
// word summing a region's 256 windows in a loop waited for each in turn). Region r is the windows w
// with w · regions / windows = r, as sampling.cpp groups them — at most 256 windows of 32 elements,
// so sums of the packed words stay packed (valid counts low, changes high, each ≤ 8192).
//   level 0: word 16r + p sums windows [s_r + 16p, s_r + 16p + 16) of region r (s_r its first);
//   level 1: word r sums level 0's words [16r, 16r + 16).
// The output's padding (a layout wider than its words) reads nothing.
WINNOW_ARGS(uint windows; uint regions; uint level;)
uint pass_main(uint i, inout uint trips) {
  if ((args.level == 0u ? i >> 4 : i) >= args.regions) return 0u;
  uint first = i << 4, last = first + 16u;
  if (args.level == 0u) {
    uint r = i >> 4;
    uint start = (r * args.windows + args.regions - 1u) / args.regions;
    uint end = ((r + 1u) * args.windows + args.regions - 1u) / args.regions;
    first = start + ((i & 15u) << 4);
    last = min(first + 16u, end); // every region holds a window: end ≥ 1
  }
  uint sum = 0u;
  for (uint k = 0u; k < 16u; ++k) {
    uint w = first + k;
    uint word = load0(min(w, last - 1u));
    sum += w < last ? word : 0u;
  }
  return sum;
}
