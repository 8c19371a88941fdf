#pragma once
/// What a backend keeps for one case, across the records of the case, mostly on its device: the
/// case's input, which the first record uploads and the others copy on the device; the expected
/// output that algorithm::matches_on_device checks against; what a backend derives from the case
/// alone (Redzone's pair counts); and on the host, the case's removal mask (removed_mask.hpp), which
/// the harness's check and cpu/redzone share. One object per key (the API's name, and what it holds), made on
/// first use; freed with the case (prepared_case holds it).
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "winnow/error.hpp"

namespace winnow {

class device_copies {
public:
  /// The object kept under `key`, made by `make()` (a std::unique_ptr<T>, or a std::shared_ptr<T>
  /// with a deleter of its own) the first time. Only the backend that owns a key asks for it, always
  /// with the same T.
  template <class T, class Make> T& get(const std::string& key, Make&& make) {
    return *share<T>(key, std::forward<Make>(make));
  }
  /// get(), as a pointer that keeps the object alive after the case is gone.
  template <class T, class Make> std::shared_ptr<T> share(const std::string& key, Make&& make) {
    std::shared_ptr<void>& slot = m_by_key[key];
    if (!slot) slot = std::shared_ptr<T>(std::forward<Make>(make)());
    return std::static_pointer_cast<T>(slot);
  }
  /// get(), or nullptr where making the object throws `unavailable`: the device has no room for it
  /// beside the runs' buffers (every backend's allocation says so by that type), and the caller falls
  /// back to the host. Nothing is kept then, so the case's next record tries again. Any other error
  /// (a lost context, a bad removal list) goes on up.
  template <class T, class Make> T* get_if_room(const std::string& key, Make&& make) {
    try {
      return &get<T>(key, std::forward<Make>(make));
    } catch (const unavailable&) { return nullptr; }
  }

private:
  std::map<std::string, std::shared_ptr<void>> m_by_key;
};

} // namespace winnow
