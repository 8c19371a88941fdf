#pragma once
/// The GL executor of the shader-era plans: every resource a texture (a pyramid, a texture per
/// level), every gather pass one full-viewport triangle with its shader (common/shaders) into the
/// output's FBO, the mark pass one point per removal, the concatenation two lines (or two
/// rectangles) per block. Argument blocks of every pass live in one uniform buffer made at prepare,
/// so a run only binds ranges of it.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "winnow/gl/objects.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::gl {

class executor final : public shader_era::executor {
public:
  [[nodiscard]] std::uint32_t max_width() const override;
  void prepare(const shader_era::plan& p, const param_set& params, const shader_era::case_words& input) override;
  void write(const shader_era::view& v, std::span<const std::uint32_t> words) override;
  void begin() override;
  void record(std::size_t pass_index) override;
  void end() override;
  [[nodiscard]] std::vector<std::uint32_t> read_midway(const shader_era::view& v, std::uint64_t count) override;
  /// read_midway's halves: the pixel-pack copy and a fence (the caller flushes); then the poll and the map.
  void begin_read(const shader_era::view& v, std::uint64_t count) override;
  [[nodiscard]] std::vector<std::uint32_t> finish_read() override;
  void flush() override;
  /// Desktop GL: word k of the predicate resource becomes an occlusion query (a 1 × 1 draw that keeps
  /// its fragment only where the word is not 0, common/shaders/predicate.frag), and the passes
  /// between predicate_on and _off are drawn under glBeginConditionalRender(GL_QUERY_WAIT). The
  /// query of a word is drawn once a run for the same resource, however often predicate_on names it
  /// (record_round): the resource must not change within the run after its first predicate_on.
  [[nodiscard]] bool predicates() const override;
  [[nodiscard]] bool prefers_predicates() const override { return false; }
  void predicate_on(const shader_era::view& v, std::uint32_t word) override;
  void predicate_off() override;
  [[nodiscard]] std::vector<std::uint32_t> read(const shader_era::view& v, std::uint64_t first,
                                                std::uint64_t count) override;
  /// On the device where the context has compute shaders (gl/src/device_check.hpp).
  [[nodiscard]] std::optional<bool> matches(const shader_era::plan& pl, const expected_output& expected,
                                            bool stable) override;
  [[nodiscard]] std::unique_ptr<winnow::timer> make_timer() override;
  void flush_caches() override;

  /// The texture holding a view (a plain resource or one level): what a viewer shows.
  [[nodiscard]] const texture& texture_of(const shader_era::view& v) const;

private:
  struct compiled {
    const program* prog = nullptr;
    framebuffer fbo;
    std::vector<const texture*> units; ///< texture unit k ← units[k]
    GLintptr args_offset = 0;
    GLsizeiptr args_size = 0;
    GLenum mode = GL_TRIANGLES;
    GLsizei vertices = 3;
    int width = 0, height = 0; ///< the viewport
  };
  const program& program_for(const std::vector<std::string>& vertex, const std::vector<std::string>& fragment,
                             const std::string& defines);

  const shader_era::plan* m_plan = nullptr;
  std::vector<std::vector<texture>> m_textures; ///< per resource: [0] plain, or levels 1 … L at [p − 1]
  std::vector<compiled> m_passes;
  std::map<std::string, std::unique_ptr<program>> m_programs;
  gpu_buffer m_args;
  vertex_array m_vao;
  /// predicate_on's: its program, 1 × 1 target and a query per word (made at prepare)
  const program* m_predicate = nullptr;
  GLint m_predicate_word = -1, m_predicate_log2w = -1; ///< its uniforms' locations
  std::unique_ptr<texture> m_predicate_texture;
  std::unique_ptr<framebuffer> m_predicate_target;
  std::vector<handle<detail::delete_query>> m_queries;
  std::vector<std::optional<shader_era::resource_id>> m_queried; ///< per word: the resource its query holds this run
  handle<detail::delete_buffer> m_pack;                          ///< read_midway's pixel-pack buffer
  handle<detail::delete_framebuffer> m_pack_source;              ///< read_midway's read framebuffer
  GLsizeiptr m_pack_bytes = 0;
  /// begin_read's read on its way: what it reads, whether through m_pack, and the fence behind it.
  struct pending_read {
    shader_era::view v;
    std::uint64_t count = 0;
    GLsizeiptr bytes = 0; ///< in m_pack; 0: the plain read, once the fence is passed
    GLsync fence = nullptr;
  };
  std::optional<pending_read> m_pending;
  std::unique_ptr<texture> m_flush;
  std::unique_ptr<framebuffer> m_flush_target; ///< m_flush as a render target: cleared to flush
};

} // namespace winnow::gl
