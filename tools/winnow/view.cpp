// `winnow view`: the window of gl/view, or why this build has none.
#include <iostream>

#include "commands.hpp"
#include "winnow/backends.hpp"
#include "winnow/error.hpp"

#ifdef WINNOW_HAVE_VIEW
#include "winnow/view/viewer.hpp"
#endif

namespace winnow::cli {

int view_command(const trace_args& a, const std::string& script) {
  // Finding the algorithm starts no backend: the window's context must come first.
  const algorithm_entry& entry = all_backends().find(a.algo);
  if (!shader_era_algorithm(entry.info) || entry.info.api != "gl")
    throw usage_error("view: " + a.algo + " is not a GL shader-era algorithm (gl/horn, gl/jj, gl/rlz, gl/bt)");
#ifdef WINNOW_HAVE_VIEW
  return view::run_viewer({.algo = a.algo, .spec = a.spec, .script = script, .params = a.params}, entry);
#else
  (void)a;
  (void)script;
  std::cerr << "winnow view: not built: " << WINNOW_VIEW_MISSING << "\n";
  return 1;
#endif
}

} // namespace winnow::cli
