// The webgl path's entry points (WINNOW_WEB; issue 59, step 2): the shader-era algorithms of gl/ —
// the same plans, executor and shaders — on the page's WebGL 2 context, run through the project's
// harness (winnow::run_case: warm-up, timed repetitions, the check against the reference) and
// returned as the record `winnow bench` writes (winnow::to_json_line). Plain C, as corpus_api.cpp;
// strings returned stay valid until the next call of the same function.
//
//   winnow_webgl_use_canvas("#c")              before anything else; 0, or 1 with winnow_webgl_message()
//   winnow_webgl_device()                      "renderer — driver" (makes the context), "" and a message if none
//   winnow_webgl_timer("queries")              the timer of the runs after it: "queries", "finish" or "" (the
//                                              context's choice: gl::make_timer, WINNOW_GL_TIMER natively)
//   winnow_webgl_algorithms()                  JSON: [{name, summary, stable, params: [{key, default, values, help}]}]
//   winnow_webgl_run("webgl/horn", "block=256", "uniform:64K:p=0.5", reps, warmup)
//                                              0 when the record was made (verified or not), 1 on a usage error
//   winnow_webgl_record()                      that record as one JSON line (record.hpp's schema)
//   winnow_webgl_verified()                    1 when it was verified
//   winnow_webgl_trace("webgl/horn", "block=64", "uniform:4K:p=0.5")
//                                              0 when traced as `winnow trace` traces (common/shader_era/trace.hpp),
//                                              1 with winnow_webgl_message()
//   winnow_webgl_trace_json()                  {algorithm, params, case, n, passes: [trace.json's pass (to_json),
//                                              image: {x, y, scale} as there, picture: {width, height}]}
//   winnow_webgl_trace_rgb(i)                  pass i's picture as `winnow trace` draws it: width × height × 3 bytes
//   winnow_webgl_trace_png(i), winnow_webgl_trace_png_bytes()
//                                              that picture as the PNG file `winnow trace` writes, and its size
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/executor.hpp"
#include "winnow/harness.hpp"
#include "winnow/record.hpp"
#include "winnow/reference.hpp"
#include "winnow/registry.hpp"
#include "winnow/shader_era/adaptive.hpp"
#include "winnow/shader_era/executor.hpp"
#include "winnow/shader_era/trace.hpp"

namespace {

std::string g_message;
std::string g_record;
bool g_verified = false;

/// The last trace: its passes' pictures (at scale_for, as `winnow trace` draws them) and description.
struct trace_result {
  std::vector<winnow::picture> pictures;
  std::string json;
  std::string png; ///< the last winnow_webgl_trace_png's
};
trace_result g_trace;

/// The `webgl` backend: gl's algorithms (register_backend in gl/src/backend.cpp) on the WebGL 2
/// context, under an api of their own so that records say which path ran.
const winnow::registry& webgl_registry() {
  static const winnow::registry reg = [] {
    using namespace winnow;
    using shader_era::concat_method;
    registry r;
    backend b;
    b.api = "webgl";
    b.summary = "WebGL 2 (OpenGL ES 3.0) in the browser: gl's fragment passes, compiled to WebAssembly";
    b.unavailable_reason = [] { return gl::unavailable_reason(); };
    b.device = [] {
      const gl::context_info& i = gl::context::get().info();
      const std::string browser = emscripten_run_script_string("navigator.userAgent");
      return device_info{i.renderer,
                         i.version + " (" + std::string(gl::to_string(i.kind)) + " context, " + i.vendor + ", " +
                             i.platform + ", " + browser + ")",
                         std::nullopt};
    };
    const auto make = [] { return std::make_unique<gl::executor>(); };
    b.algorithms = shader_era::entries(
        "webgl", {concat_method::stacks, concat_method::automatic, concat_method::lines, concat_method::rects}, make);
    b.algorithms.push_back(shader_era::histopyramid_entry("webgl", make));
    r.add(std::move(b));
    return r;
  }();
  return reg;
}

winnow::params params_of(const std::string& text) {
  winnow::params p;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) p.insert(winnow::parse_param(item));
  return p;
}

} // namespace

extern "C" {

/// The last failure's message ("" after a success).
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_message() { return g_message.c_str(); }

/// The canvas (a CSS selector) whose WebGL 2 context the runs use; before the first run or device().
EMSCRIPTEN_KEEPALIVE int winnow_webgl_use_canvas(const char* selector) {
  try {
    winnow::gl::use_canvas(selector);
    g_message.clear();
    return 0;
  } catch (const std::exception& e) {
    g_message = e.what();
    return 1;
  }
}

/// "renderer — driver" of the context (made here on first use); "" with winnow_webgl_message() saying
/// why there is none.
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_device() {
  static std::string text;
  try {
    if (const auto why = webgl_registry().unavailable_reason("webgl")) {
      g_message = *why;
      return "";
    }
    const winnow::device_info d = webgl_registry().device("webgl");
    text = d.device + " — " + d.driver;
    g_message.clear();
  } catch (const std::exception& e) {
    g_message = e.what();
    text.clear();
  }
  return text.c_str();
}

/// The timer of the runs and traces after it, as WINNOW_GL_TIMER chooses natively (gl::make_timer):
/// "queries" (timer queries, where the context has them), "finish" (glFinish and performance.now()),
/// or "" (the context's choice). A word it does not take is refused by the next run, naming it.
EMSCRIPTEN_KEEPALIVE void winnow_webgl_timer(const char* which) {
  if (*which) setenv("WINNOW_GL_TIMER", which, 1);
  else unsetenv("WINNOW_GL_TIMER");
}

/// The webgl algorithms and their parameters (the registry's axes), as JSON.
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_algorithms() {
  static const std::string text = [] {
    nlohmann::json list = nlohmann::json::array();
    for (const winnow::algorithm_entry& e : webgl_registry().find_backend("webgl").algorithms) {
      nlohmann::json axes = nlohmann::json::array();
      for (const winnow::param_axis& a : e.info.axes)
        axes.push_back({{"key", a.key},
                        {"default", a.default_value},
                        {"values", a.values},
                        {"choices_only", a.choices_only},
                        {"min", a.min},
                        {"max", a.max},
                        {"help", a.help}});
      list.push_back(
          {{"name", e.info.full_name()}, {"summary", e.info.summary}, {"stable", e.info.stable}, {"params", axes}});
    }
    return list.dump();
  }();
  return text.c_str();
}

/// Runs `algorithm` ("webgl/horn") with `params` ("block=256,concat=lines"; "" for the defaults) on the
/// case `spec` through the harness: `warmup` untimed and `reps` timed repetitions, the result checked
/// against the reference. 0 when a record was made (winnow_webgl_record; verified or not, or skipped
/// with the reason); 1 when the name, a parameter or the spec is refused, with winnow_webgl_message().
EMSCRIPTEN_KEEPALIVE int winnow_webgl_run(const char* algorithm, const char* params, const char* spec, int reps,
                                          int warmup) {
  g_record.clear();
  g_verified = false;
  try {
    const winnow::registry& reg = webgl_registry();
    const winnow::algorithm_entry& entry = reg.find(algorithm);
    const winnow::params given = params_of(params);
    (void)winnow::resolve_params(entry.info, given); // usage errors before the case is made
    std::string cmd = std::string("winnow_web run --algo ") + algorithm + " --case " + spec;
    if (*params) cmd += std::string(" --param ") + params;
    cmd += " --reps " + std::to_string(reps) + " --warmup " + std::to_string(warmup);
    std::vector<std::string> words;
    std::stringstream in(cmd);
    for (std::string w; in >> w;) words.push_back(w);
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    winnow::set_command_line(static_cast<int>(argv.size()), argv.data());

    winnow::prepared_case c{winnow::generate(std::string(spec)), {}};
    c.expected = winnow::reference_compact(c.w);
    winnow::run_options o;
    o.reps = reps;
    o.warmup = warmup;
    o.settle_ns = 0; // the warm-up asked for, no more: the page's one thread waits for it
    o.check = winnow::check_place::host;
    const winnow::record r = winnow::run_case(reg, entry, given, c, o);
    g_record = winnow::to_json_line(r);
    g_verified = r.verified;
    g_message = r.skipped ? "skipped: " + *r.skipped : r.mismatch;
    return 0;
  } catch (const std::exception& e) {
    g_message = e.what();
    return 1;
  }
}

/// Runs `algorithm` ("webgl/horn") with `params` on the case `spec` one pass at a time, each pass's
/// output read back and drawn, as `winnow trace` does natively (the same trace() and picture code).
/// 0, or 1 when the algorithm, a parameter or the spec is refused or the case is too large to look at.
EMSCRIPTEN_KEEPALIVE int winnow_webgl_trace(const char* algorithm, const char* params, const char* spec) {
  g_trace = {};
  try {
    namespace se = winnow::shader_era;
    const winnow::algorithm_entry& entry = webgl_registry().find(algorithm);
    if (!se::runs_plans(entry.info)) throw winnow::usage_error(std::string(algorithm) + " runs no plan of passes");
    const winnow::param_set resolved = winnow::resolve_params(entry.info, params_of(params));
    const winnow::workload w = winnow::generate(std::string(spec));
    auto made = entry.make();
    auto* a = dynamic_cast<se::plan_algorithm*>(made.get());
    if (!a) throw winnow::error(std::string(algorithm) + " does not run on the shader-era frame");
    a->prepare(w, resolved, {});
    const auto timer = a->make_timer();
    nlohmann::ordered_json passes = nlohmann::ordered_json::array();
    for (const se::traced_pass& p : se::trace(*a, *timer)) {
      se::image_rect rect;
      g_trace.pictures.push_back(se::pass_picture(p, w.size(), se::scale_for(p), &rect));
      nlohmann::ordered_json j = se::to_json(p);
      j["image"] = {{"x", rect.x0}, {"y", rect.y0}, {"scale", rect.scale}};
      j["picture"] = {{"width", g_trace.pictures.back().width()}, {"height", g_trace.pictures.back().height()}};
      passes.push_back(std::move(j));
    }
    g_trace.json = nlohmann::ordered_json{{"algorithm", entry.info.full_name()},
                                          {"params", resolved.texts()},
                                          {"case", w.spec},
                                          {"n", w.size()},
                                          {"passes", std::move(passes)}}
                       .dump();
    g_message.clear();
    return 0;
  } catch (const std::exception& e) {
    g_trace = {};
    g_message = e.what();
    return 1;
  }
}

/// The last trace's description (JSON; "" when it was refused).
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_trace_json() { return g_trace.json.c_str(); }

/// Pass `i`'s picture: RGB bytes, row by row from the top (its size in the JSON); nullptr past the last.
EMSCRIPTEN_KEEPALIVE const unsigned char* winnow_webgl_trace_rgb(int i) {
  if (i < 0 || static_cast<std::size_t>(i) >= g_trace.pictures.size()) return nullptr;
  return &g_trace.pictures[static_cast<std::size_t>(i)].pixels().front().r;
}

/// Pass `i`'s picture as a PNG file (winnow_webgl_trace_png_bytes() long); nullptr past the last.
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_trace_png(int i) {
  if (i < 0 || static_cast<std::size_t>(i) >= g_trace.pictures.size()) return nullptr;
  g_trace.png = g_trace.pictures[static_cast<std::size_t>(i)].png();
  return g_trace.png.data();
}
EMSCRIPTEN_KEEPALIVE int winnow_webgl_trace_png_bytes() { return static_cast<int>(g_trace.png.size()); }

/// The last run's record, one JSON line ("" when the run was refused).
EMSCRIPTEN_KEEPALIVE const char* winnow_webgl_record() { return g_record.c_str(); }
/// 1 when the last run's result matched the reference.
EMSCRIPTEN_KEEPALIVE int winnow_webgl_verified() { return g_verified ? 1 : 0; }

} // extern "C"
