// `winnow view`: the window of gl/view, or why this build has none.
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "results_folder.hpp"
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
  // Every screenshot's file name is checked before the window opens (an empty one was ignored).
  for (std::size_t start = 0; start < script.size();) {
    const std::size_t end = std::min(script.find(',', start), script.size());
    const std::string command = script.substr(start, end - start);
    if (command.starts_with("screenshot:"))
      check_output_file("view --script " + command + ":", command.substr(11), {".png"});
    start = end + 1;
  }
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
