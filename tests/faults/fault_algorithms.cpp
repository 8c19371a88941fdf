// Algorithms that lose their API's context on purpose, added by a static initializer to every GPU
// backend of `winnow_faulty` (the CLI with these, tests/faults/CMakeLists.txt) for fault_test.cpp,
// the proof that a fault costs one record and not the campaign:
//   API/lose_context  fails its run the way the API reports a lost context, through the backend's
//                     own error path: Vulkan's VK_ERROR_DEVICE_LOST, GL's GL_CONTEXT_LOST, and on
//                     CUDA a real fault (a kernel writes to an address no allocation holds).
//   API/fresh         the backend's first predicate algorithm, refusing to run in a process whose
//                     API context was lost: its records verify only where bench went on in a fresh
//                     process after each lost one.
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "winnow/backends.hpp"
#include "winnow/error.hpp"
#if WINNOW_FAULTS_GL
#include "winnow/gl/check.hpp"
#endif
#if WINNOW_FAULTS_VULKAN
#include "winnow/vulkan/check.hpp"
#endif

namespace winnow::faults {
#if WINNOW_FAULTS_CUDA
void lose_cuda_context(); // cuda_fault.cu
#endif

namespace {

/// The APIs whose context this process lost.
std::set<std::string>& lost() {
  static std::set<std::string> apis;
  return apis;
}

[[noreturn]] void lose(const std::string& api) {
  lost().insert(api);
  const std::string how = " (a lost context, injected by tests/faults)";
#if WINNOW_FAULTS_GL
  if (api == "gl") gl::throw_error(0x0507 /* GL_CONTEXT_LOST */, "glDrawArrays" + how);
#endif
#if WINNOW_FAULTS_VULKAN
  if (api == "vk" || api == "vkfrag") vk::throw_result(VK_ERROR_DEVICE_LOST, "vkQueueSubmit" + how);
#endif
#if WINNOW_FAULTS_CUDA
  if (api == "cuda") lose_cuda_context();
#endif
  throw error("tests/faults: no way to lose " + api + "'s context"); // never: only those are registered
}

class lose_context final : public algorithm {
public:
  explicit lose_context(std::string api) : m_api(std::move(api)) {}
  void prepare(const workload&, const param_set&, const prepare_options&) override {}
  void run(timer&) override { lose(m_api); }
  compaction_output result() override { throw error("tests/faults: lose_context has no result"); }
  [[nodiscard]] traffic bytes_moved() const override { return {}; }
  void flush_caches() override {}

private:
  std::string m_api;
};

/// Everything the inner algorithm does, once this process is known not to have lost the API.
class fresh final : public algorithm {
public:
  explicit fresh(const algorithm_entry& inner) : m_info(inner.info), m_inner(inner.make()) {}
  void prepare(const workload& w, const param_set&, const prepare_options& o) override {
    if (lost().contains(m_info.api))
      throw error("tests/faults: " + m_info.api + "/fresh ran in the process that lost " + m_info.api +
                  "'s context (bench should have gone on in a fresh one)");
    m_inner->prepare(w, resolve_params(m_info, {}), o);
  }
  void reset() override { m_inner->reset(); }
  void run(timer& t) override { m_inner->run(t); }
  compaction_output result() override { return m_inner->result(); }
  std::optional<bool> matches_on_device(const expected_output& e, bool stable) override {
    return m_inner->matches_on_device(e, stable);
  }
  [[nodiscard]] traffic bytes_moved() const override { return m_inner->bytes_moved(); }
  std::unique_ptr<timer> make_timer() override { return m_inner->make_timer(); }
  void flush_caches() override { m_inner->flush_caches(); }

private:
  algorithm_info m_info;
  std::unique_ptr<algorithm> m_inner;
};

void add_fault_algorithms(registry& r) {
  for (const std::string api : {"gl", "vk", "vkfrag", "cuda"}) {
    const backend* b = nullptr;
    for (const auto& x : r.backends())
      if (x.api == api && !x.algorithms.empty()) b = &x;
    if (!b) continue; // not built
    const algorithm_entry* inner = nullptr;
    for (const auto& e : b->algorithms)
      if (!inner && e.info.input == input_kind::predicate) inner = &e;
    algorithm_entry lose_entry{.info = {.api = api, .name = "lose_context", .summary = "loses the context (tests)"},
                               .make = [api] { return std::make_unique<lose_context>(api); }};
    algorithm_entry fresh_entry{.info = {.api = api,
                                         .name = "fresh",
                                         .summary = inner->info.full_name() + ", never after a lost context (tests)",
                                         .stable = inner->info.stable},
                                .make = [e = *inner] { return std::make_unique<fresh>(e); }};
    r.add_algorithm(std::move(lose_entry));
    r.add_algorithm(std::move(fresh_entry));
  }
}

const bool registered = [] {
  extend_all_backends(add_fault_algorithms);
  return true;
}();

} // namespace
} // namespace winnow::faults
