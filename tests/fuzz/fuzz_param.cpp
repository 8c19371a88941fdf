// libFuzzer target: --param KEY=VALUE lists (comma-separated here) against the CPU algorithms' axes
// and a synthetic algorithm with every kind of axis. Accepted parameters must print back to a list
// that resolves to the same values (a round trip).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "winnow/algorithm.hpp"
#include "winnow/error.hpp"
#include "winnow/registry.hpp"

namespace {

const std::vector<winnow::algorithm_info>& infos() {
  static const std::vector<winnow::algorithm_info> list = [] {
    std::vector<winnow::algorithm_info> out;
    winnow::registry r;
    winnow::cpu::register_backend(r);
    for (const auto& b : r.backends())
      for (const auto& e : b.algorithms) out.push_back(e.info);
    winnow::algorithm_info synthetic{.api = "fuzz", .name = "axes"};
    synthetic.axes = {
        winnow::choice_axis("scan", "", "hillis", {"hillis", "blelloch"}, {"hillis", "blelloch", "plain"}),
        winnow::integer_axis("block", "", "128", {"32", "128"}, 32, 2048, true),
        winnow::integer_axis("threads", "", "0", {"0"}, 0, 1024),
        winnow::integer_axis("pause", "", "auto", {"2000"}, 0, 1000000, false, {"auto"})};
    out.push_back(synthetic);
    return out;
  }();
  return list;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  winnow::params given;
  try {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find(',', start), text.size());
      auto [k, v] = winnow::parse_param(text.substr(start, end - start));
      if (given.contains(k)) return 0;
      given[k] = v;
      start = end + 1;
    }
  } catch (const winnow::usage_error&) { return 0; }
  for (const auto& info : infos()) {
    try {
      const winnow::param_set p = winnow::resolve_params(info, given);
      const winnow::param_set again = winnow::resolve_params(info, p.texts()); // must not throw
      if (again.texts() != p.texts()) std::abort();
    } catch (const winnow::usage_error&) {}
  }
  return 0;
}
