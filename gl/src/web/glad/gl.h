// The web build's stand-in for glad's gl.h (WINNOW_WEB, on gl's include path there only, as
// common/src/web/tbb stands in for oneTBB): Emscripten's OpenGL ES 3.0 headers, which WebGL 2 is, and
// glad's few names that gl/ uses. GL_ES_VERSION_3_0 is defined and GL_VERSION_3_3 and
// GL_ES_VERSION_3_1 are not, so gl/src/api.cpp compiles its ES branches alone; the extensions the
// web context never has (KHR_debug, EXT_disjoint_timer_query through glad) are 0 and their calls,
// which those flags keep from running, do nothing.
#pragma once
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#define GLAD_API_PTR
typedef void (*GLADapiproc)(void);
typedef GLADapiproc (*GLADloadfunc)(const char* name);

inline int GLAD_GL_KHR_debug = 0;
inline int GLAD_GL_EXT_disjoint_timer_query = 0;
inline int GLAD_GL_EXT_memory_object = 0;
/// WebGL's entry points are linked in (library_webgl.js): nothing to load.
inline int gladLoadGLES2(GLADloadfunc) { return 1; }

// Called only where the flags above say the context has them: never in the browser.
inline void glGetQueryivEXT(GLenum, GLenum, GLint*) {}
inline void glQueryCounterEXT(GLuint, GLenum) {}
inline void glGetQueryObjectui64vEXT(GLuint, GLenum, GLuint64*) {}
inline void glDebugMessageCallbackKHR(GLDEBUGPROCKHR, const void*) {}
inline void glDebugMessageControlKHR(GLenum, GLenum, GLenum, GLsizei, const GLuint*, GLboolean) {}
inline void glPushDebugGroupKHR(GLenum, GLuint, GLsizei, const GLchar*) {}
inline void glPopDebugGroupKHR() {}
