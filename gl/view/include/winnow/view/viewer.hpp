#pragma once
/// `winnow view`: a window (GLFW, an OpenGL 4.5 core context) that runs a GL shader-era algorithm in
/// its own context and shows what each pass wrote, coloured as `winnow trace` colours it.
///   → ←  next / previous pass      Home End  first / last pass
///   B  next block size   S  the other scan   C  lines or rectangles   R  run again
///   wheel: zoom (nearest neighbour), drag: pan, Esc: quit
/// A status line shows the pass (i of N, phase, name), the value under the cursor and the pass's time
/// on its timer query. `script` plays commands one per frame instead of waiting for keys:
/// "next,prev,first,last,block,scan,concat,rerun,zoom_in,zoom_out,screenshot:FILE.png,quit"; a
/// screenshot also writes FILE.png.json with where the stream is in it.
#include <string>
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::view {

struct view_args {
  std::string algo, spec, script;
  std::vector<std::string> params; ///< key=value
  int width = 1280, height = 860;
};

/// Shows `entry` (a GL shader-era algorithm). 0 when the window was closed, 1 when it could not open
/// (no display: the message says so). Throws winnow::usage_error for bad input, before any window opens.
int run_viewer(const view_args& args, const algorithm_entry& entry);

} // namespace winnow::view
