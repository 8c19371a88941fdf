#pragma once
// The viewer's window and how it draws: a GLFW window with an OpenGL 4.5 core context (adopted as
// winnow::gl's context, so the algorithms run in it), pictures uploaded as RGB textures and drawn as
// quads with nearest filtering — pixel for pixel at zoom 1.
#include <functional>
#include <memory>
#include <string>

#include "winnow/gl/objects.hpp"
#include "winnow/picture.hpp"

struct GLFWwindow;

namespace winnow::view {

/// A picture on the GPU.
class image {
public:
  image() = default;
  explicit image(const picture& p);
  [[nodiscard]] int width() const { return m_width; }
  [[nodiscard]] int height() const { return m_height; }
  [[nodiscard]] GLuint id() const { return m_texture.id(); }
  [[nodiscard]] bool valid() const { return m_texture.id() != 0; }

private:
  gl::handle<gl::detail::delete_texture> m_texture;
  int m_width = 0, m_height = 0;
};

/// What the window reports: keys (GLFW key codes), wheel steps, drags, the cursor.
struct input_handlers {
  std::function<void(int key)> key;
  std::function<void(double steps, double x, double y)> scroll;
  std::function<void(double dx, double dy)> drag;
  std::function<void(double x, double y)> cursor;
};

class window {
public:
  /// Opens the window and adopts its context as winnow::gl's. Throws winnow::unavailable with
  /// "no display: …" when there is none, or GLFW's reason.
  window(int width, int height, const std::string& title, input_handlers handlers);
  ~window();
  window(const window&) = delete;
  window& operator=(const window&) = delete;

  [[nodiscard]] bool open() const;
  void close();
  /// Handles pending events (the handlers run here).
  void poll();
  void swap();
  [[nodiscard]] int width() const; ///< framebuffer pixels
  [[nodiscard]] int height() const;

  void clear(rgb c);
  /// `img` with its top-left corner at (x, y) in framebuffer pixels (top-left origin), `zoom` pixels
  /// per picture pixel.
  void draw(const image& img, double x, double y, double zoom);
  /// The back buffer as it is now (call after drawing, before swap).
  [[nodiscard]] picture screenshot() const;

private:
  GLFWwindow* m_window = nullptr;
  input_handlers m_handlers;
  bool m_dragging = false;
  double m_last_x = 0, m_last_y = 0;
  gl::program m_quad;
  std::unique_ptr<gl::vertex_array> m_vao; ///< made once the context exists
  friend struct callbacks;
};

} // namespace winnow::view
