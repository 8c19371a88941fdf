// What a scan's first read applies to each value (args.hpp value_map): 0 identity, 1 invalid flag
// (payload 0), 2 valid flag, 3 run start — RLZ's filter fused into the scan: the run length where an
// invalid run starts inside its segment of `seg` words (its first word, or the word before is 0),
// else 0. mapped0 reads input 0, mapped1 input 1.
uint apply_map(uint v, uint map) { return map == 0u ? v : (map == 1u ? uint(v == 0u) : uint(v != 0u)); }
uint mapped0(uint i, uint map, uint seg) {
  uint v = load0(i);
  if (map != 3u) return apply_map(v, map);
  return (v != 0u && ((i & (seg - 1u)) == 0u || load0(i - 1u) == 0u)) ? v : 0u;
}
uint mapped1(uint i, uint map, uint seg) {
  uint v = load1(i);
  if (map != 3u) return apply_map(v, map);
  return (v != 0u && ((i & (seg - 1u)) == 0u || load1(i - 1u) == 0u)) ? v : 0u;
}
