#include "device_check.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/check.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {
namespace {

// check.glsl's mode bits and flags; check_textures.glsl's local size and where its seen bits start.
constexpr std::uint32_t mode_stable = 1, mode_input = 2, mode_removals = 4, mode_stacks = 8;
constexpr std::uint32_t flag_words = 3, seen_at = 4, local_size = 256;

/// A bitmap of `count` values, each ≤ top (those past it mark nothing); `repeats` says whether one
/// was there twice.
std::vector<std::uint32_t> bitmap(const std::uint32_t* values, std::size_t count, std::uint64_t top, bool* repeats) {
  std::vector<std::uint32_t> bits(top / 32 + 1, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t v = values[i], bit = 1u << (v & 31);
    if (v > top) continue;
    if (repeats && (bits[v >> 5] & bit)) *repeats = true;
    bits[v >> 5] |= bit;
  }
  return bits;
}

/// A shader storage buffer of `words`.
handle<detail::delete_buffer> storage(const std::vector<std::uint32_t>& words) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  handle<detail::delete_buffer> b(id);
  glBindBuffer(api::shader_storage_buffer, id);
  WINNOW_GL_CHECK(glBufferData(api::shader_storage_buffer, static_cast<GLsizeiptr>(4 * words.size()), words.data(),
                               GL_DYNAMIC_DRAW));
  glBindBuffer(api::shader_storage_buffer, 0);
  return b;
}

/// One case's words on the device (winnow::device_copies' "gl expected"): the expected stream, the
/// input as generated, the expected values' bitmap (where an unstable check can use one) and the
/// removal list's, back to back; and the scratch words each check zeroes: its flags, the values seen.
struct expected_copy {
  expected_copy(const workload& w, const std::vector<std::uint32_t>& expected) : n(w.size()), count(expected.size()) {
    for (const std::uint32_t v : expected) top = std::max(top, v);
    // The bitmap is as large as the largest value (verify.cpp's byte_map_fits): the corpus's
    // payloads are index + 1, no larger than the input; with larger values an unstable result is
    // checked on the host.
    std::vector<std::uint32_t> words(expected);
    pristine_at = words.size();
    words.insert(words.end(), w.data.begin(), w.data.end());
    bits_at = words.size();
    if (std::uint64_t{top} <= 4 * std::max(n, count) + 64) {
      bool repeats = false;
      const std::vector<std::uint32_t> bits = bitmap(expected.data(), count, top, &repeats);
      distinct = !repeats;
      words.insert(words.end(), bits.begin(), bits.end());
      seen_words = bits.size();
    }
    removed_at = words.size();
    removals = !w.removals.empty();
    if (removals) {
      const std::vector<std::uint32_t> bits = bitmap(w.removals.data(), w.removals.size(), n ? n - 1 : 0, nullptr);
      words.insert(words.end(), bits.begin(), bits.end());
    }
    words.push_back(0); // never empty
    case_words = storage(words);
    zeros.assign(seen_at + seen_words, 0);
    scratch = storage(zeros);
  }
  std::uint64_t n, count;
  std::uint32_t top = 0;
  std::uint64_t pristine_at = 0, bits_at = 0, removed_at = 0, seen_words = 0;
  bool distinct = false, removals = false;
  handle<detail::delete_buffer> case_words, scratch;
  std::vector<std::uint32_t> zeros; ///< the scratch words as each check starts them
};

/// check_textures.glsl, linked once a process (the context is the process's).
const program& check_program() {
  static const program p = program::compute({"check_textures.glsl"});
  return p;
}

void set(const program& p, const char* name, std::uint64_t value) {
  glUniform1ui(p.uniform(name), static_cast<GLuint>(value));
}

} // namespace

std::optional<bool> matches_on_device(const expected_output& expected, bool stable, const texture_result& out) {
  if (out.count != expected.values.size()) return false;
  // A 3.3 context has none; Mesa gives a later version for it, but winnow keeps to 3.30 there.
  if (context::get().info().kind == context_kind::gl33 || !api::has_compute()) return std::nullopt;
  // 32-bit indices in the shader (a stack's position lies within 8 rows past the count's).
  if (expected.w.size() >= (1ull << 31) || out.count >= (1ull << 31)) return std::nullopt;
  expected_copy& c = expected.copies.get<expected_copy>(
      "gl expected", [&] { return std::make_unique<expected_copy>(expected.w, expected.values); });
  if (!stable && (!c.seen_words || !c.distinct)) return std::nullopt; // values too large, or a multiset
  const auto texels = [](const texture& t) {
    return static_cast<std::uint64_t>(t.width()) * static_cast<std::uint64_t>(t.height());
  };
  if (texels(out.result) < out.count || texels(out.stream) < c.n)
    throw error("winnow::gl: the device check: the survivors or the stream overrun their texture");

  const program& p = check_program();
  glUseProgram(p.id());
  std::uint32_t mode = mode_input | (c.removals ? mode_removals : 0);
  if (stable) mode |= mode_stable;
  if (out.stacks_log2_width) mode |= mode_stacks;
  set(p, "u_count", out.count);
  set(p, "u_top", c.top);
  set(p, "u_n", c.n);
  set(p, "u_mode", mode);
  set(p, "u_log2w", out.stacks_log2_width.value_or(0));
  set(p, "u_pristine_at", c.pristine_at);
  set(p, "u_bits_at", c.bits_at);
  set(p, "u_removed_at", c.removed_at);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, out.result.id());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, out.stream.id());
  glBindBuffer(api::shader_storage_buffer, c.scratch.id());
  glBufferSubData(api::shader_storage_buffer, 0, static_cast<GLsizeiptr>(4 * c.zeros.size()), c.zeros.data());
  glBindBufferBase(api::shader_storage_buffer, 0, c.case_words.id());
  glBindBufferBase(api::shader_storage_buffer, 1, c.scratch.id());
  const std::uint64_t groups = (std::max(out.count, c.n) + local_size - 1) / local_size;
  // Past 65535 workgroups (the least GL_MAX_COMPUTE_WORK_GROUP_COUNT) as x × y (check_textures.glsl).
  const std::uint64_t x = std::min<std::uint64_t>(groups, 65535), y = (groups + x - 1) / std::max<std::uint64_t>(x, 1);
  if (groups) WINNOW_GL_CHECK(api::dispatch_compute(static_cast<GLuint>(x), static_cast<GLuint>(y)));
  const void* mapped = glMapBufferRange(api::shader_storage_buffer, 0, 4 * flag_words, GL_MAP_READ_BIT);
  if (!mapped) check_error("glMapBufferRange(the device check's flags)");
  std::uint32_t flags[flag_words] = {};
  if (mapped) std::memcpy(flags, mapped, sizeof flags);
  glUnmapBuffer(api::shader_storage_buffer);
  glBindBuffer(api::shader_storage_buffer, 0);
  glActiveTexture(GL_TEXTURE0);
  glUseProgram(0);
  context::get().check("winnow::gl: the device check");
  if (!mapped) throw error("winnow::gl: the device check: its flags could not be mapped");
  return std::all_of(std::begin(flags), std::end(flags), [](std::uint32_t f) { return f == 0; });
}

} // namespace winnow::gl
