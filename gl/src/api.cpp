#include "api.hpp"

#include <vector>

namespace winnow::gl::api {
namespace {

bool g_es = false;

} // namespace

bool es() { return g_es; }
void set_es(bool e) { g_es = e; }

bool load(GLADloadfunc loader) {
#ifdef GL_ES_VERSION_3_0
  if (es()) return gladLoadGLES2(loader) != 0;
#endif
#ifdef GL_VERSION_3_3
  if (!es()) return gladLoadGL(loader) != 0;
#endif
  return false;
}

namespace {

/// GL_QUERY_COUNTER_BITS of the query `target` (timestamp or time_elapsed); 0 where the context has none.
int counter_bits(GLenum target) {
  GLint bits = 0;
#ifdef GL_ES_VERSION_3_0
  if (es()) {
    if (GLAD_GL_EXT_disjoint_timer_query) glGetQueryivEXT(target, GL_QUERY_COUNTER_BITS_EXT, &bits);
    return bits;
  }
#endif
#ifdef GL_VERSION_3_3
  if (!es()) glGetQueryiv(target, GL_QUERY_COUNTER_BITS, &bits);
#endif
  return bits;
}

} // namespace

int timestamp_bits() { return counter_bits(timestamp); }
int elapsed_bits() { return counter_bits(time_elapsed); }

void query_counter(GLuint query) {
#ifdef GL_ES_VERSION_3_0
  if (es()) return glQueryCounterEXT(query, GL_TIMESTAMP_EXT);
#endif
#ifdef GL_VERSION_3_3
  glQueryCounter(query, GL_TIMESTAMP);
#endif
}

GLuint64 query_result(GLuint query) {
  GLuint64 value = 0;
#ifdef GL_ES_VERSION_3_0
  if (es()) {
    glGetQueryObjectui64vEXT(query, GL_QUERY_RESULT_EXT, &value);
    return value;
  }
#endif
#ifdef GL_VERSION_3_3
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &value);
#endif
  return value;
}

bool timer_disjoint() {
#ifdef GL_ES_VERSION_3_0
  if (es()) {
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    return disjoint != 0;
  }
#endif
  return false;
}

bool has_debug() { return GLAD_GL_KHR_debug != 0; }

void debug_output(debug_callback callback) {
#ifdef GL_ES_VERSION_3_0
  if (es()) {
    glEnable(GL_DEBUG_OUTPUT_KHR);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR);
    return glDebugMessageCallbackKHR(reinterpret_cast<GLDEBUGPROCKHR>(callback), nullptr);
  }
#endif
#ifdef GL_VERSION_3_3
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(reinterpret_cast<GLDEBUGPROC>(callback), nullptr);
#endif
}

void debug_group_messages(bool on) {
  for (const GLenum type : {debug_type_push_group, debug_type_pop_group}) {
#ifdef GL_ES_VERSION_3_0
    if (es()) {
      glDebugMessageControlKHR(debug_source_application, type, GL_DONT_CARE, 0, nullptr, on ? GL_TRUE : GL_FALSE);
      continue;
    }
#endif
#ifdef GL_VERSION_3_3
    glDebugMessageControl(debug_source_application, type, GL_DONT_CARE, 0, nullptr, on ? GL_TRUE : GL_FALSE);
#endif
  }
}

void push_group(std::string_view name) {
  const auto length = static_cast<GLsizei>(name.size());
#ifdef GL_ES_VERSION_3_0
  if (es()) return glPushDebugGroupKHR(debug_source_application, 0, length, name.data());
#endif
#ifdef GL_VERSION_3_3
  glPushDebugGroup(debug_source_application, 0, length, name.data());
#endif
}

void pop_group() {
#ifdef GL_ES_VERSION_3_0
  if (es()) return glPopDebugGroupKHR();
#endif
#ifdef GL_VERSION_3_3
  glPopDebugGroup();
#endif
}

void read_uint_rows(int y0, int width, int rows, int components, std::uint32_t* out) {
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  if (!es() || components == 4) {
    const GLenum format = components == 1 ? GL_RED_INTEGER : components == 2 ? GL_RG_INTEGER : GL_RGBA_INTEGER;
    glReadPixels(0, y0, width, rows, format, GL_UNSIGNED_INT, out);
    return;
  }
  // ES reads an unsigned integer attachment as RGBA_INTEGER / UNSIGNED_INT only (besides one
  // format of the driver's choosing): read four words a texel and keep the first `components`.
  std::vector<std::uint32_t> rgba(static_cast<std::size_t>(width) * static_cast<std::size_t>(rows) * 4);
  glReadPixels(0, y0, width, rows, GL_RGBA_INTEGER, GL_UNSIGNED_INT, rgba.data());
  for (std::size_t t = 0; t < rgba.size() / 4; ++t)
    for (int c = 0; c < components; ++c)
      out[t * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)] =
          rgba[4 * t + static_cast<std::size_t>(c)];
}

void disable_multisample() {
#ifdef GL_VERSION_3_3
  if (!es()) glDisable(GL_MULTISAMPLE); // ES has no switch: its default framebuffers decide
#endif
}

bool has_conditional_render() { return !es(); }

void begin_conditional_render([[maybe_unused]] GLuint query) {
#ifdef GL_VERSION_3_3
  if (!es()) glBeginConditionalRender(query, GL_QUERY_WAIT);
#endif
}

void end_conditional_render() {
#ifdef GL_VERSION_3_3
  if (!es()) glEndConditionalRender();
#endif
}

bool has_compute() {
#ifdef GL_ES_VERSION_3_1
  if (es()) return GLAD_GL_ES_VERSION_3_1 != 0;
#endif
#ifdef GL_VERSION_4_3
  if (!es()) return GLAD_GL_VERSION_4_3 != 0;
#endif
  return false;
}

void dispatch_compute([[maybe_unused]] GLuint x, [[maybe_unused]] GLuint y) {
  [[maybe_unused]] constexpr GLbitfield buffer_update_barrier_bit = 0x200; // GL_BUFFER_UPDATE_BARRIER_BIT
#ifdef GL_ES_VERSION_3_1
  if (es()) {
    glDispatchCompute(x, y, 1);
    glMemoryBarrier(buffer_update_barrier_bit);
  }
#endif
#ifdef GL_VERSION_4_3
  if (!es()) {
    glDispatchCompute(x, y, 1);
    glMemoryBarrier(buffer_update_barrier_bit);
  }
#endif
}

} // namespace winnow::gl::api
