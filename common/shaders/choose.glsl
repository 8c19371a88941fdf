// The adaptive algorithm's choice on the device, after sample_sum.glsl (input 0: each region's valid
// count, low 16 bits, and changes, high 16): the model's features [1, p, p², c] — each region's
// density p and change rate c weighted by its share of the elements sampled, as sampling.cpp's
// features_of() computes them — then each candidate's predicted time, features · its four
// coefficients. Input 1 holds float bits (sampling.hpp's choice_model_words): four coefficients per
// candidate, then each region's elements and neighbouring pairs, which the shape alone decides. Word
// k is 1 for the candidate predicted fastest (the first of equals) and 0 for every other: the
// predicate under which the device runs candidate k's passes, or what the host reads back.
WINNOW_ARGS(uint regions; uint candidates;)
// The regions' loops run to the constant sample_regions (sampling.hpp asserts it is 16), so that the
// compiler unrolls them and their loads are in flight together; past args.regions they read region 0
// and add nothing.
const uint max_regions = 16u;
uint pass_main(uint i, inout uint trips) {
  uint extents = 4u * args.candidates;
  float total = 0.0;
  for (uint r = 0u; r < max_regions; ++r) {
    float elements = uintBitsToFloat(load1(extents + 2u * (r < args.regions ? r : 0u)));
    total += r < args.regions ? elements : 0.0;
  }
  vec4 f = vec4(1.0, 0.0, 0.0, 0.0); // nothing sampled: features_of() of no region
  if (total > 0.0) {
    f = vec4(0.0);
    for (uint r = 0u; r < max_regions; ++r) {
      uint at = r < args.regions ? r : 0u;
      float elements = uintBitsToFloat(load1(extents + 2u * at));
      float pairs = uintBitsToFloat(load1(extents + 2u * at + 1u));
      uint tally = load0(at);
      if (r >= args.regions || elements == 0.0) continue;
      float p = float(tally & 0xffffu) / elements;
      float c = pairs > 0.0 ? float(tally >> 16) / pairs : 0.0;
      f += (elements / total) * vec4(1.0, p, p * p, c);
    }
  }
  // The candidates in chunks of 16, each unrolled (a constant bound, indices clamped, the words past
  // args.candidates read and passed over): one loop iteration a candidate waited for its four loads
  // in turn, 18-23 µs for 16 candidates on the H100's fragment paths.
  const uint chunk = 16u;
  uint best = 0u;
  float best_ns = 0.0;
  for (uint k0 = 0u; k0 < args.candidates; k0 += chunk) {
    for (uint j = 0u; j < chunk; ++j) {
      uint k = k0 + j;
      uint at = 4u * min(k, args.candidates - 1u);
      vec4 beta = uintBitsToFloat(uvec4(load1(at), load1(at + 1u), load1(at + 2u), load1(at + 3u)));
      float ns = dot(f, beta);
      if (k < args.candidates && (k == 0u || ns < best_ns)) {
        best = k;
        best_ns = ns;
      }
    }
  }
  return i == best ? 1u : 0u;
}
