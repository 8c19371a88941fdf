#include <oneapi/tbb/version.h>

#include <fstream>
#include <thread>

#include "algorithms.hpp"

namespace winnow::cpu {

void register_backend(registry& r) {
  backend b;
  b.api = "cpu";
  b.summary = "CPU references (C++20 and oneTBB)";
  b.unavailable_reason = [] { return std::optional<std::string>(); };
  b.device = [] {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(cpuinfo, line))
      if (line.starts_with("model name")) {
        model = line.substr(line.find(':') + 2);
        break;
      }
    return device_info{model + " (" + std::to_string(std::thread::hardware_concurrency()) + " threads)",
                       std::string("oneTBB ") + TBB_VERSION_STRING + ", libstdc++ " + std::to_string(_GLIBCXX_RELEASE)};
  };
  b.algorithms = {sequential_entry(), remove_if_entry(),    par_remove_if_entry(), redzone_entry(),
                  stencil_entry(),    scan_compact_entry(), preserve_entry()};
  r.add(std::move(b));
}

} // namespace winnow::cpu
