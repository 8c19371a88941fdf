#include "winnow/gl/objects.hpp"

#include <algorithm>

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {
namespace detail {
void delete_texture(GLuint id) { glDeleteTextures(1, &id); }
void delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
void delete_program(GLuint id) { glDeleteProgram(id); }
void delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void delete_query(GLuint id) { glDeleteQueries(1, &id); }
void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
} // namespace detail

namespace {

struct format_info {
  GLenum internal, format;
  int components;
};

format_info info_of(texel_format f) {
  switch (f) {
  case texel_format::r32ui: return {GL_R32UI, GL_RED_INTEGER, 1};
  case texel_format::rg32ui: return {GL_RG32UI, GL_RG_INTEGER, 2};
  case texel_format::rgba32ui: return {GL_RGBA32UI, GL_RGBA_INTEGER, 4};
  }
  return {GL_R32UI, GL_RED_INTEGER, 1};
}

std::string log_of(GLuint object, bool is_program) {
  GLint length = 0;
  if (is_program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  if (is_program) glGetProgramInfoLog(object, length, nullptr, log.data());
  else glGetShaderInfoLog(object, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

GLuint compile(GLenum stage, std::string_view name, const std::string& source) {
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    const std::string log = log_of(shader, false);
    glDeleteShader(shader);
    throw error("winnow::gl::program: " + std::string(name) + " does not compile: " + log);
  }
  return shader;
}

} // namespace

// Objects are made and filled by binding them (OpenGL 3.3 has no direct state access): the edit
// unit below is texture unit 0, whose binding every pass sets again before it draws.

texture::texture(texel_format format, int width, int height) : m_format(format), m_width(width), m_height(height) {
  GLuint id = 0;
  glGenTextures(1, &id);
  m_handle = handle<detail::delete_texture>(id);
  const auto f = info_of(format);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, id);
  // One level, never mipmapped: with NEAREST filtering the texture is complete without others.
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(f.internal), width, height, 0, f.format, GL_UNSIGNED_INT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

void texture::upload(const std::uint32_t* data, int rows) {
  if (rows <= 0) return;
  const auto f = info_of(m_format);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, id());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, m_width, rows, f.format, GL_UNSIGNED_INT, data);
}

std::vector<std::uint32_t> texture::download(int y0, int rows) const {
  const auto f = info_of(m_format);
  std::vector<std::uint32_t> out(static_cast<std::size_t>(m_width) * static_cast<std::size_t>(rows) *
                                 static_cast<std::size_t>(f.components));
  if (rows <= 0) return out;
  // Read through a framebuffer of its own (3.3 reads a texture's rows only as a read framebuffer).
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  const handle<detail::delete_framebuffer> owner(fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, id(), 0);
  api::read_uint_rows(y0, m_width, rows, f.components, out.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  return out;
}

std::string_view to_string(fbo_status s) {
  switch (s) {
  case fbo_status::complete: return "complete";
  case fbo_status::incomplete_attachment: return "incomplete attachment";
  case fbo_status::missing_attachment: return "missing attachment";
  case fbo_status::incomplete_draw_buffer: return "incomplete draw buffer";
  case fbo_status::unsupported: return "unsupported";
  case fbo_status::other: return "incomplete (other)";
  }
  return "?";
}

framebuffer::framebuffer(const std::vector<const texture*>& targets) {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  m_handle = handle<detail::delete_framebuffer>(id);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, id);
  std::vector<GLenum> buffers;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const auto attachment = static_cast<GLenum>(GL_COLOR_ATTACHMENT0 + i);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, attachment, GL_TEXTURE_2D, targets[i]->id(), 0);
    buffers.push_back(attachment);
  }
  glDrawBuffers(static_cast<GLsizei>(buffers.size()), buffers.data());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
}

fbo_status framebuffer::status() const {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, id());
  const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  switch (status) {
  case GL_FRAMEBUFFER_COMPLETE: return fbo_status::complete;
  case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return fbo_status::incomplete_attachment;
  case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return fbo_status::missing_attachment;
  case 0x8CDB: return fbo_status::incomplete_draw_buffer; // GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: desktop GL only
  case GL_FRAMEBUFFER_UNSUPPORTED: return fbo_status::unsupported;
  default: return fbo_status::other;
  }
}

program program::link(std::string_view name, GLuint first, GLuint second, const char* varying) {
  const GLuint id = glCreateProgram();
  glAttachShader(id, first);
  if (second) glAttachShader(id, second);
  if (varying)
    glTransformFeedbackVaryings(id, 1, &varying, GL_INTERLEAVED_ATTRIBS); // before the link, which applies it
  glLinkProgram(id);
  glDeleteShader(first);
  if (second) glDeleteShader(second);
  program p;
  p.m_handle = handle<detail::delete_program>(id);
  GLint ok = 0;
  glGetProgramiv(id, GL_LINK_STATUS, &ok);
  if (!ok) throw error("winnow::gl::program: " + std::string(name) + " does not link: " + log_of(id, true));
  return p;
}

program program::from_source(std::string_view name, const std::string& vertex, const std::string& fragment) {
  const GLuint vs = compile(GL_VERTEX_SHADER, std::string(name) + " (vertex)", vertex);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, std::string(name) + " (fragment)", fragment);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  return link(name, vs, fs, nullptr);
}

// The geometry stage's name: desktop GL 3.2 and later (the ES 3.1 loader the build also compiles
// against has no GL_GEOMETRY_SHADER; feedback programs are never made on ES).
constexpr GLenum geometry_shader_stage = 0x8DD9;

program program::feedback(const std::vector<std::string>& vertex_files, const std::vector<std::string>& geometry_files,
                          const char* varying) {
  const std::string version = glsl_version();
  const std::string name = vertex_files.back() + (geometry_files.empty() ? "" : " + " + geometry_files.back());
  const GLuint vs = compile(GL_VERTEX_SHADER, name + " (vertex)", assemble(version, "", vertex_files));
  GLuint gs = 0;
  try {
    if (!geometry_files.empty())
      gs = compile(geometry_shader_stage, name + " (geometry)", assemble(version, "", geometry_files));
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  return link(name, vs, gs, varying);
}

program program::compute(const std::vector<std::string>& files) {
  std::string legend;
  const std::string source = assemble(glsl_version(), "", files, &legend);
  try {
    return link(files.back(), compile(api::compute_shader, files.back() + " (compute)", source), 0, nullptr);
  } catch (const error& e) { throw error(std::string(e.what()) + " [source strings: " + legend + "]"); }
}

namespace {

void expand(const std::string& file, std::string& out, std::vector<std::string>& names, int depth) {
  if (depth > 8) throw error("winnow::gl::program: #include nested too deep at " + file);
  const std::string_view text = shader_source(file);
  if (text.empty()) throw error("winnow::gl::program: no embedded shader named " + file);
  const int number = static_cast<int>(names.size()) + 1;
  names.push_back(file);
  out += "#line 1 " + std::to_string(number) + "\n";
  int line = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view l = text.substr(pos, eol - pos);
    ++line;
    if (l.starts_with("#include \"")) {
      const auto close = l.find('"', 10);
      if (close == std::string_view::npos)
        throw error("winnow::gl::program: " + file + ":" + std::to_string(line) + ": bad #include");
      expand(std::string(l.substr(10, close - 10)), out, names, depth + 1);
      out += "#line " + std::to_string(line + 1) + " " + std::to_string(number) + "\n";
    } else {
      out.append(l);
      out += '\n';
    }
    pos = eol + 1;
  }
}

} // namespace

std::string assemble(std::string_view version, const std::string& defines, const std::vector<std::string>& files,
                     std::string* legend) {
  std::string out(version);
  out += "\n" + defines;
  std::vector<std::string> names;
  for (const auto& f : files) expand(f, out, names, 0);
  if (legend) {
    legend->clear();
    for (std::size_t i = 0; i < names.size(); ++i)
      *legend += (i ? ", " : "") + std::to_string(i + 1) + " = " + names[i];
  }
  return out;
}

std::string glsl_version() {
  switch (context::get().info().kind) {
  // GLSL 3.30 has no layout(binding) and no findMSB, and matches varyings by name: graphics.glsl
  // defines its way round each when WINNOW_GL33 is set, and bind_units() sets what binding did.
  case context_kind::gl33: return "#version 330 core\n#define WINNOW_GL33 1";
  // ESSL 3.10 has all three; it wants precisions (the integer streams need all 32 bits).
  case context_kind::es31:
    return "#version 310 es\nprecision highp float;\nprecision highp int;\nprecision highp usampler2D;";
  // ESSL 3.00 (WebGL 2) lacks what GLSL 3.30 lacks, and wants the precisions of ESSL 3.10.
  case context_kind::es30:
    return "#version 300 es\n#define WINNOW_GL33 1\nprecision highp float;\nprecision highp int;\nprecision highp "
           "usampler2D;";
  case context_kind::gl45: break;
  }
  return "#version 450 core";
}

namespace {

/// GLSL 3.30's (and ESSL 3.00's) stand-in for layout(binding): the samplers of graphics.glsl on their texture units
/// (u_in0-2 on 0-2, u_level[i] on 3 + i) and the argument block on uniform buffer binding 0.
void bind_units(GLuint id) {
  glUseProgram(id);
  const auto unit = [&](const std::string& name, int u) {
    if (const GLint at = glGetUniformLocation(id, name.c_str()); at >= 0) glUniform1i(at, u);
  };
  for (int i = 0; i < 3; ++i) unit("u_in" + std::to_string(i), i);
  for (int i = 0; i < 12; ++i) unit("u_level[" + std::to_string(i) + "]", 3 + i);
  if (const GLuint block = glGetUniformBlockIndex(id, "winnow_args"); block != GL_INVALID_INDEX)
    glUniformBlockBinding(id, block, 0);
  glUseProgram(0);
}

} // namespace

program::program(const std::vector<std::string>& vertex_files, const std::vector<std::string>& fragment_files,
                 const std::string& defines) {
  std::string vertex_legend, fragment_legend;
  const std::string version = glsl_version();
  const std::string vs = assemble(version, defines, vertex_files, &vertex_legend);
  const std::string fs = assemble(version, defines, fragment_files, &fragment_legend);
  const std::string name = vertex_files.back() + " + " + fragment_files.back();
  try {
    *this = from_source(name, vs, fs);
  } catch (const error& e) {
    throw error(std::string(e.what()) + " [source strings: vertex " + vertex_legend + "; fragment " + fragment_legend +
                "]");
  }
  if (const context_kind k = context::get().info().kind; k == context_kind::gl33 || k == context_kind::es30)
    bind_units(id());
}

gpu_buffer::gpu_buffer(std::size_t bytes, const void* data) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  m_handle = handle<detail::delete_buffer>(id);
  glBindBuffer(GL_UNIFORM_BUFFER, id);
  glBufferData(GL_UNIFORM_BUFFER, static_cast<GLsizeiptr>(bytes), data, GL_STATIC_DRAW);
  glBindBuffer(GL_UNIFORM_BUFFER, 0);
}

GLint program::uniform(const char* name) const { return glGetUniformLocation(id(), name); }

vertex_array::vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  m_handle = handle<detail::delete_vertex_array>(id);
}

} // namespace winnow::gl
