#pragma once
/// What a backend keeps on its device for one case, across the records of the case: the expected
/// output that algorithm::matches_on_device checks against is uploaded by the case's first record
/// and serves the others. One object per API, made on first use; freed with the case
/// (prepared_case holds it).
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace winnow {

class device_copies {
public:
  /// The object `api` keeps here, made by `make()` (a std::unique_ptr<T>) the first time. Only `api`'s
  /// own backend asks for its key, always with the same T.
  template <class T, class Make> T& get(const std::string& api, Make&& make) {
    std::shared_ptr<void>& slot = m_by_api[api];
    if (!slot) slot = std::shared_ptr<T>(std::forward<Make>(make)());
    return *static_cast<T*>(slot.get());
  }

private:
  std::map<std::string, std::shared_ptr<void>> m_by_api;
};

} // namespace winnow
