#include "window.hpp"

#define GLFW_INCLUDE_NONE // glad provides the GL declarations
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <utility>

#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/settings.hpp"

namespace winnow::view {
namespace {

const char* quad_vertex = R"(#version 450 core
// A rectangle in framebuffer pixels (top-left origin), as a 4-vertex triangle strip.
layout(location = 0) uniform vec4 u_rect;
layout(location = 1) uniform vec2 u_size;
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  vec2 p = mix(u_rect.xy, u_rect.zw, corner);
  v_uv = corner;
  gl_Position = vec4(p.x / u_size.x * 2.0 - 1.0, 1.0 - p.y / u_size.y * 2.0, 0.0, 1.0);
}
)";
const char* quad_fragment = R"(#version 450 core
layout(binding = 0) uniform sampler2D u_image;
in vec2 v_uv;
layout(location = 0) out vec4 o_colour;
void main() { o_colour = texture(u_image, v_uv); }
)";

std::string glfw_error() {
  const char* what = nullptr;
  glfwGetError(&what);
  return what ? what : "no reason given";
}

} // namespace

struct callbacks {
  static window& of(GLFWwindow* w) { return *static_cast<window*>(glfwGetWindowUserPointer(w)); }
  static void key(GLFWwindow* w, int key, int, int action, int) {
    if (action != GLFW_RELEASE && of(w).m_handlers.key) of(w).m_handlers.key(key);
  }
  static void scroll(GLFWwindow* w, double, double dy) {
    double x = 0, y = 0;
    glfwGetCursorPos(w, &x, &y);
    if (of(w).m_handlers.scroll) of(w).m_handlers.scroll(dy, x, y);
  }
  static void button(GLFWwindow* w, int button, int action, int) {
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    window& self = of(w);
    self.m_dragging = action == GLFW_PRESS;
    glfwGetCursorPos(w, &self.m_last_x, &self.m_last_y);
  }
  static void cursor(GLFWwindow* w, double x, double y) {
    window& self = of(w);
    if (self.m_dragging && self.m_handlers.drag) self.m_handlers.drag(x - self.m_last_x, y - self.m_last_y);
    self.m_last_x = x;
    self.m_last_y = y;
    if (self.m_handlers.cursor) self.m_handlers.cursor(x, y);
  }
};

image::image(const picture& p) : m_width(p.width()), m_height(p.height()) {
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &id);
  m_texture = gl::handle<gl::detail::delete_texture>(id);
  glTextureStorage2D(id, 1, GL_RGB8, m_width, m_height);
  glTextureSubImage2D(id, 0, 0, 0, m_width, m_height, GL_RGB, GL_UNSIGNED_BYTE, p.pixels().data());
  glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(id, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

window::window(int width, int height, const std::string& title, input_handlers handlers)
    : m_handlers(std::move(handlers)) {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland)) throw unavailable("no display: set DISPLAY, or use winnow trace");
  if (!glfwInit())
    throw unavailable("no display: GLFW cannot start (" + glfw_error() + "); set DISPLAY, or use winnow trace");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, debug_enabled() ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);
  m_window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!m_window) {
    const std::string why = glfw_error();
    glfwTerminate();
    throw unavailable("winnow view: no OpenGL 4.5 core window (" + why + ")");
  }
  glfwMakeContextCurrent(m_window);
  glfwSwapInterval(1);
  gl::context::adopt("GLFW window", reinterpret_cast<GLADloadfunc>(glfwGetProcAddress));
  glfwSetWindowUserPointer(m_window, this);
  glfwSetKeyCallback(m_window, callbacks::key);
  glfwSetScrollCallback(m_window, callbacks::scroll);
  glfwSetMouseButtonCallback(m_window, callbacks::button);
  glfwSetCursorPosCallback(m_window, callbacks::cursor);
  m_quad = gl::program::from_source("viewer quad", quad_vertex, quad_fragment);
  m_vao = std::make_unique<gl::vertex_array>();
  gl::set_pass_state();
}

window::~window() {
  // The GL objects go before the context does; GLFW is left to tear the rest down at exit.
  m_quad = gl::program();
  m_vao.reset();
  glfwDestroyWindow(m_window);
}

bool window::open() const { return !glfwWindowShouldClose(m_window); }
void window::close() { glfwSetWindowShouldClose(m_window, GLFW_TRUE); }
void window::poll() { glfwPollEvents(); }
void window::swap() { glfwSwapBuffers(m_window); }

int window::width() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return w;
}
int window::height() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return h;
}

void window::clear(rgb c) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width(), height());
  glClearColor(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void window::draw(const image& img, double x, double y, double zoom) {
  glUseProgram(m_quad.id());
  glProgramUniform4f(m_quad.id(), 0, static_cast<float>(x), static_cast<float>(y),
                     static_cast<float>(x + img.width() * zoom), static_cast<float>(y + img.height() * zoom));
  glProgramUniform2f(m_quad.id(), 1, static_cast<float>(width()), static_cast<float>(height()));
  glBindTextureUnit(0, img.id());
  glBindVertexArray(m_vao->id());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

picture window::screenshot() const {
  const int w = width(), h = height();
  std::vector<rgb> rows(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, rows.data());
  picture out(w, h);
  for (int y = 0; y < h; ++y) // GL's rows start at the bottom
    for (int x = 0; x < w; ++x)
      out.set(x, y,
              rows[static_cast<std::size_t>(h - 1 - y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)]);
  return out;
}

} // namespace winnow::view
