// The adaptive algorithm's sample of the stream (input 0), from which it chooses an algorithm and
// block size (common/include/winnow/shader_era/sampling.hpp; the CPU computes the same words for the
// training cases). Word i summarises the `span` (≤ 32: sampling.hpp asserts it) elements from element i · stride on: their
// valid count in the low 16 bits, and in the high 16 how many neighbours among them differ in
// validity — few for coherent images, up to one per pair for noise of the same density. The loop's
// bound is the constant 32, so that the compiler unrolls it and the loads are in flight together
// (each a clamped index, its element masked past the span or n). Its output is laid out two rows
// high (frame.cpp's add_sample): see there.
WINNOW_ARGS(uint n; uint stride; uint span;)
uint pass_main(uint i, inout uint trips) {
  if (args.n == 0u) return 0u;
  uint first = i * args.stride;
  uint valid = 0u, changes = 0u;
  bool previous = false;
  for (uint k = 0u; k < 32u; ++k) {
    bool inside = k < args.span && first + k < args.n; // the padding past n is no element
    bool v = inside && load0(min(first + k, args.n - 1u)) != 0u;
    if (v) ++valid;
    if (inside && k > 0u && v != previous) ++changes;
    previous = v;
  }
  return valid | (changes << 16);
}
