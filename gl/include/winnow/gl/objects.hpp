#pragma once
/// RAII wrappers over the GL objects the passes use: 2D integer textures (NEAREST, one level),
/// framebuffers with a typed completeness status, programs assembled from the embedded shader files
/// whose failures carry the files' names and the driver's log, buffers, and the empty vertex array
/// every draw binds.
#include <glad/gl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace winnow::gl {

/// Owns one GL name; `Deleter` frees it.
template <void (*Deleter)(GLuint)> class handle {
public:
  handle() = default;
  explicit handle(GLuint id) : m_id(id) {}
  handle(handle&& o) noexcept : m_id(std::exchange(o.m_id, 0)) {}
  handle& operator=(handle&& o) noexcept {
    if (this != &o) {
      if (m_id) Deleter(m_id);
      m_id = std::exchange(o.m_id, 0);
    }
    return *this;
  }
  ~handle() {
    if (m_id) Deleter(m_id);
  }
  [[nodiscard]] GLuint id() const { return m_id; }

private:
  GLuint m_id = 0;
};

namespace detail {
void delete_texture(GLuint id);
void delete_framebuffer(GLuint id);
void delete_program(GLuint id);
void delete_vertex_array(GLuint id);
void delete_query(GLuint id);
void delete_buffer(GLuint id);
} // namespace detail

enum class texel_format { r32ui, rg32ui, rgba32ui };

/// A width × height 2D texture of unsigned integers, NEAREST, no mipmaps.
class texture {
public:
  texture() = default;
  texture(texel_format format, int width, int height);
  [[nodiscard]] GLuint id() const { return m_handle.id(); }
  [[nodiscard]] int width() const { return m_width; }
  [[nodiscard]] int height() const { return m_height; }
  [[nodiscard]] texel_format format() const { return m_format; }
  /// Uploads rows [0, rows) from `data` (components per texel × width × rows values).
  void upload(const std::uint32_t* data, int rows);
  /// Reads back rows [y0, y0 + rows).
  [[nodiscard]] std::vector<std::uint32_t> download(int y0, int rows) const;

private:
  handle<detail::delete_texture> m_handle;
  texel_format m_format = texel_format::r32ui;
  int m_width = 0, m_height = 0;
};

/// glCheckFramebufferStatus's answers, named.
enum class fbo_status {
  complete,
  incomplete_attachment,
  missing_attachment,
  incomplete_draw_buffer,
  unsupported,
  other
};
[[nodiscard]] std::string_view to_string(fbo_status s);

/// A framebuffer with color attachments; status() says whether it can be drawn to.
class framebuffer {
public:
  framebuffer() = default;
  /// Attaches `targets` as color attachments 0, 1, … (level 0) and enables them as draw buffers.
  explicit framebuffer(const std::vector<const texture*>& targets);
  [[nodiscard]] GLuint id() const { return m_handle.id(); }
  [[nodiscard]] fbo_status status() const;

private:
  handle<detail::delete_framebuffer> m_handle;
};

/// A linked program. Construction throws winnow::error naming the shader and quoting the driver's
/// info log when a stage does not compile or the program does not link.
class program {
public:
  program() = default;
  /// Each stage is the embedded files (common/shaders, gl/shaders) named, in order, after the
  /// `#version` line and `defines`; `#include "file"` lines are expanded. Example:
  /// program({"graphics.glsl", "fullscreen.vert"}, {"graphics.glsl", "scan_hillis.glsl", "gather.frag"}).
  program(const std::vector<std::string>& vertex_files, const std::vector<std::string>& fragment_files,
          const std::string& defines = "");
  /// From source text (tests); `name` is what messages call it.
  static program from_source(std::string_view name, const std::string& vertex, const std::string& fragment);
  /// A vertex and a geometry stage (embedded files, as above) and no fragment stage, whose output
  /// `varying` transform feedback captures (one interleaved attribute): for draws with the
  /// rasterizer off. No geometry files: the vertex stage alone (what the geometry stage costs is
  /// measured against it, gl calibrate). Desktop GL only (3.2 or later).
  static program feedback(const std::vector<std::string>& vertex_files, const std::vector<std::string>& geometry_files,
                          const char* varying);
  /// A compute shader of the embedded files (as above): OpenGL 4.3 and ES 3.1 (not 3.3).
  static program compute(const std::vector<std::string>& files);
  [[nodiscard]] GLuint id() const { return m_handle.id(); }
  [[nodiscard]] GLint uniform(const char* name) const;

private:
  /// Links the compiled stages (and deletes them; a second of 0 is none), with transform feedback
  /// of `varying` when given.
  static program link(std::string_view name, GLuint first, GLuint second, const char* varying);
  handle<detail::delete_program> m_handle;
};

/// A buffer object with immutable storage of `bytes`, initialized from `data` (may be null).
class gpu_buffer {
public:
  gpu_buffer() = default;
  gpu_buffer(std::size_t bytes, const void* data);
  [[nodiscard]] GLuint id() const { return m_handle.id(); }

private:
  handle<detail::delete_buffer> m_handle;
};

/// The empty vertex array: vertices are pulled from gl_VertexID and textures.
class vertex_array {
public:
  vertex_array();
  [[nodiscard]] GLuint id() const { return m_handle.id(); }

private:
  handle<detail::delete_vertex_array> m_handle;
};

/// The text of an embedded shader file (empty when there is none of that name).
[[nodiscard]] std::string_view shader_source(std::string_view name);

/// The #version line the context's shaders start with (with the ES precisions and, on GLSL 3.30,
/// the define graphics.glsl reads): "#version 450 core", "#version 330 core…", "#version 310 es…".
[[nodiscard]] std::string glsl_version();
/// One stage's source: `version` (e.g. "#version 450 core"), `defines`, then the files in order with
/// their `#include "file"` lines expanded; `#line` directives number every file, and `legend` (when
/// given) receives "1 = graphics.glsl, 2 = …" for error messages. Throws winnow::error naming a file
/// that is not embedded.
[[nodiscard]] std::string assemble(std::string_view version, const std::string& defines,
                                   const std::vector<std::string>& files, std::string* legend = nullptr);

} // namespace winnow::gl
