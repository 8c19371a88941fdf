// The adaptive algorithm's sample of the stream (input 0), which it reads back to choose an
// algorithm and block size (common/include/winnow/shader_era/sampling.hpp; the CPU computes the same
// words for the training cases). Word i summarises the `span` elements from element i · stride on:
// their valid count in the low 16 bits, and in the high 16 how many neighbours among them differ in
// validity — few for coherent images, up to one per pair for noise of the same density.
WINNOW_ARGS(uint n; uint stride; uint span;)
uint pass_main(uint i, inout uint trips) {
  uint first = i * args.stride;
  uint valid = 0u, changes = 0u;
  bool previous = false;
  for (uint k = 0u; k < args.span; ++k) {
    uint j = first + k;
    if (j >= args.n) break; // the padding past n is no element
    bool v = load0(j) != 0u;
    if (v) ++valid;
    if (k > 0u && v != previous) ++changes;
    previous = v;
  }
  return valid | (changes << 16);
}
