// A gather pass as a compute dispatch: one invocation per output word (common/shaders/README.md).
void main() {
  uint i = invocation_index();
  if (i >= args.extent) return;
  uint trips = 0u;
  uint v = pass_main(i, trips);
  args.dst.v[i] = v;
  if (LOOP_CHECK) args.trips.v[i] = trips;
}
