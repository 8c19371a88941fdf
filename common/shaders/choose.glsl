// The adaptive algorithm's choice on the device, after sample_sum.glsl (input 0: each region's valid
// count, low 16 bits, and changes, high 16): the model's features [1, p, p², √c] — each region's
// density p and change rate c weighted by its share of the elements sampled, the square root taken
// of the mean c, as sampling.cpp's features_of() computes them — then each candidate's predicted
// time, features · its four coefficients. Input 1 holds float bits (sampling.hpp's choice_model_words): four coefficients per
// candidate, then each region's elements and neighbouring pairs, which the shape alone decides. Word
// k is 1 for the candidate predicted fastest (the first of equals) and 0 for every other: the
// predicate under which the device runs candidate k's passes (the host's choice reads the regions'
// parts instead and computes the same: adaptive.cpp).
WINNOW_ARGS(uint regions; uint candidates;)
// The regions' loop runs to the constant sample_regions (sampling.hpp asserts it is 16), so that the
// compiler unrolls it; past args.regions it reads region 0 and adds nothing. f = Σ elements ·
// [1, p, p², c] / Σ elements. The pass is cheap: without either loop its phase cost the same on the
// H100 (17-28 µs, which are the predicate's preparation: docs/algorithms.md § Adaptive,
// "Choice, on the device").
const uint max_regions = 16u;
uint pass_main(uint i, inout uint trips) {
  uint extents = 4u * args.candidates;
  float total = 0.0;
  vec4 sum = vec4(0.0);
  for (uint r = 0u; r < max_regions; ++r) {
    uint at = r < args.regions ? r : 0u;
    float elements = uintBitsToFloat(load1(extents + 2u * at));
    float pairs = uintBitsToFloat(load1(extents + 2u * at + 1u));
    uint tally = load0(at);
    bool counts = r < args.regions && elements > 0.0;
    float e = counts ? elements : 0.0;
    float p = float(tally & 0xffffu) / max(elements, 1.0);
    float c = pairs > 0.0 ? float(tally >> 16) / pairs : 0.0;
    total += e;
    sum += e * vec4(1.0, p, p * p, c);
  }
  // Nothing sampled: features_of() of no region.
  vec4 f = total > 0.0 ? sum / total : vec4(1.0, 0.0, 0.0, 0.0);
  f.w = sqrt(f.w); // the change rate's square root, as features_of() takes it
  uint best = 0u;
  float best_ns = 0.0;
  for (uint k = 0u; k < args.candidates; ++k) {
    uint at = 4u * k;
    vec4 beta = uintBitsToFloat(uvec4(load1(at), load1(at + 1u), load1(at + 2u), load1(at + 3u)));
    float ns = dot(f, beta);
    if (k == 0u || ns < best_ns) {
      best = k;
      best_ns = ns;
    }
  }
  return i == best ? 1u : 0u;
}
