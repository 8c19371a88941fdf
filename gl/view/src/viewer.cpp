// `winnow view`: the state of the viewer (algorithm, parameters, passes, the pass shown, zoom and
// pan), its keys and script commands, and the frame it draws.
#include "winnow/view/viewer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "window.hpp"
// After window.hpp (glad): GLFW must not pull in another GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/record.hpp"
#include "winnow/shader_era/trace.hpp"

namespace winnow::view {
namespace {

constexpr rgb background{24, 24, 28}, status_ink{230, 230, 230}, status_back{40, 40, 46};
constexpr double margin = 16;
constexpr int status_height = 30;

/// The next value of an axis after `current` (wrapping), from the values the axis sweeps.
std::string next_value(const algorithm_info& info, const std::string& key, const std::string& current) {
  for (const auto& a : info.axes) {
    if (a.key != key) continue;
    const auto& values = a.choices_only ? a.choices() : a.values;
    const auto it = std::find(values.begin(), values.end(), current);
    return it == values.end() || it + 1 == values.end() ? values.front() : *(it + 1);
  }
  return current;
}

class viewer {
public:
  viewer(const algorithm_entry& entry, params p, workload w, window& win)
      : m_entry(entry), m_params(std::move(p)), m_w(std::move(w)), m_win(win) {
    rerun();
  }

  /// Prepares the algorithm with the current parameters and runs it pass by pass (the trace).
  void rerun() {
    auto made = m_entry.make();
    auto* algo = dynamic_cast<shader_era::plan_algorithm*>(made.get());
    if (!algo) throw error("winnow view: " + m_entry.info.full_name() + " does not run on the shader-era frame");
    const param_set resolved = resolve_params(m_entry.info, m_params);
    m_params = resolved.texts();
    algo->prepare(m_w, resolved, {});
    const auto timer = algo->make_timer();
    m_passes = shader_era::trace(*algo, *timer);
    m_images.clear();
    m_images.resize(m_passes.size());
    m_current = std::min(m_current, m_passes.size() - 1);
    m_scale = shader_era::scale_for(m_passes.front());
    m_zoom = 1;
    m_pan_x = m_pan_y = 0;
  }

  void key(int k) {
    switch (k) {
    case GLFW_KEY_RIGHT: command("next"); break;
    case GLFW_KEY_LEFT: command("prev"); break;
    case GLFW_KEY_HOME: command("first"); break;
    case GLFW_KEY_END: command("last"); break;
    case GLFW_KEY_B: command("block"); break;
    case GLFW_KEY_S: command("scan"); break;
    case GLFW_KEY_C: command("concat"); break;
    case GLFW_KEY_R: command("rerun"); break;
    case GLFW_KEY_ESCAPE: command("quit"); break;
    default: break;
    }
  }

  /// One script or key command. Throws usage_error for one it does not know.
  void command(const std::string& c) {
    if (c == "next") m_current = std::min(m_current + 1, m_passes.size() - 1);
    else if (c == "prev") m_current = m_current ? m_current - 1 : 0;
    else if (c == "first") m_current = 0;
    else if (c == "last") m_current = m_passes.size() - 1;
    else if (c == "block" || c == "scan" || c == "concat") {
      m_params[c] = next_value(m_entry.info, c, m_params[c]);
      rerun();
    } else if (c == "rerun") rerun();
    else if (c == "zoom_in") zoom_at(2, m_win.width() / 2.0, m_win.height() / 2.0);
    else if (c == "zoom_out") zoom_at(0.5, m_win.width() / 2.0, m_win.height() / 2.0);
    else if (c.starts_with("screenshot:")) m_screenshot = c.substr(11);
    else if (c == "quit") m_win.close();
    else
      throw usage_error(
          "view --script: unknown command '" + c +
          "' (next, prev, first, last, block, scan, concat, rerun, zoom_in, zoom_out, screenshot:FILE, quit)");
  }

  void scroll(double steps, double x, double y) { zoom_at(std::pow(2.0, steps / 2), x, y); }
  void drag(double dx, double dy) {
    m_pan_x += dx;
    m_pan_y += dy;
  }
  void cursor(double x, double y) {
    m_cursor_x = x;
    m_cursor_y = y;
  }

  void draw() {
    m_win.clear(background);
    const shader_era::traced_pass& p = m_passes[m_current];
    if (!m_images[m_current].valid()) m_images[m_current] = image(shader_era::texels(p, m_w.size(), m_scale));
    m_win.draw(m_images[m_current], margin + m_pan_x, margin + m_pan_y, m_zoom);
    const picture line = status(p);
    m_win.draw(image(line), 0, m_win.height() - status_height, 1);
    if (!m_screenshot.empty()) {
      write_atomically(m_screenshot, m_win.screenshot().png());
      // Where the stream is in the shot, for whoever compares it with a trace picture.
      nlohmann::ordered_json j{{"pass", p.number},
                               {"phase", p.phase},
                               {"name", p.name},
                               {"x", margin + m_pan_x},
                               {"y", margin + m_pan_y},
                               {"width", m_images[m_current].width() * m_zoom},
                               {"height", m_images[m_current].height() * m_zoom},
                               {"scale", m_scale},
                               {"zoom", m_zoom}};
      write_atomically(m_screenshot + ".json", j.dump(2) + "\n");
      std::cout << "screenshot " << m_screenshot << ": pass " << p.number << " (" << p.name << ")\n";
      m_screenshot.clear();
    }
  }

private:
  void zoom_at(double factor, double x, double y) {
    const double z = std::clamp(m_zoom * factor, 0.125, 64.0);
    // Keep the point under (x, y) where it is.
    m_pan_x = x - margin - (x - margin - m_pan_x) * z / m_zoom;
    m_pan_y = y - margin - (y - margin - m_pan_y) * z / m_zoom;
    m_zoom = z;
  }

  picture status(const shader_era::traced_pass& p) const {
    std::ostringstream s;
    s << "pass " << p.number << "/" << m_passes.size() - 1 << "  " << p.phase << ": " << p.name;
    const double pixels = m_scale * m_zoom;
    const double tx = std::floor((m_cursor_x - margin - m_pan_x) / pixels),
                 ty = std::floor((m_cursor_y - margin - m_pan_y) / pixels);
    if (tx >= 0 && ty >= 0 && tx < p.width && ty < p.height)
      s << "   (" << tx << ", " << ty
        << ") = " << p.words[static_cast<std::size_t>(ty) * p.width + static_cast<std::size_t>(tx)];
    char t[32];
    std::snprintf(t, sizeof t, "   %.1f us", p.ns / 1e3);
    s << t << "   [" << to_string(m_params) << "]";
    picture out(m_win.width(), status_height, status_back);
    out.text(8, 6, s.str(), status_ink);
    return out;
  }

  const algorithm_entry& m_entry;
  params m_params;
  workload m_w;
  window& m_win;
  std::vector<shader_era::traced_pass> m_passes;
  std::vector<image> m_images;
  std::size_t m_current = 0;
  int m_scale = 1;
  double m_zoom = 1, m_pan_x = 0, m_pan_y = 0, m_cursor_x = -1, m_cursor_y = -1;
  std::string m_screenshot;
};

std::vector<std::string> split(const std::string& script) {
  std::vector<std::string> out;
  std::string item;
  for (std::istringstream in(script); std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

} // namespace

int run_viewer(const view_args& a, const algorithm_entry& entry) {
  // Everything the user gave is checked before a window opens.
  params given;
  for (const auto& p : a.params) {
    auto [k, v] = parse_param(p);
    if (given.contains(k)) throw usage_error("--param " + k + " given twice");
    given[k] = v;
  }
  const case_spec spec = parse_spec(a.spec);
  if (spec.n > shader_era::max_traced_elements)
    throw usage_error("view: " + to_string(spec) + " has " + std::to_string(spec.n) +
                      " elements, too many to look at (at most 16M)");
  const std::vector<std::string> script = split(a.script);
  if (entry.info.api != "gl") throw usage_error("view: " + entry.info.full_name() + " is not a GL algorithm");
  (void)resolve_params(entry.info, given);

  std::unique_ptr<viewer> app;
  input_handlers h;
  h.key = [&](int k) {
    if (app) app->key(k);
  };
  h.scroll = [&](double s, double x, double y) {
    if (app) app->scroll(s, x, y);
  };
  h.drag = [&](double dx, double dy) {
    if (app) app->drag(dx, dy);
  };
  h.cursor = [&](double x, double y) {
    if (app) app->cursor(x, y);
  };
  std::unique_ptr<window> win;
  try {
    win = std::make_unique<window>(
        a.width, a.height,
        "winnow view: " + a.algo + " " + a.spec +
            "   (keys: <- -> Home End, B block, S scan, C concat, R run, wheel zoom, drag, Esc)",
        h);
  } catch (const unavailable& e) {
    std::cerr << "winnow view: " << e.what() << "\n";
    return 1;
  }
  if (auto reason = gl::unavailable_reason()) {
    std::cerr << "winnow view: gl cannot run in this window: " << *reason << "\n";
    return 1;
  }
  workload w = generate(spec);
  if (w.size() > shader_era::max_traced_elements)
    throw usage_error("view: " + w.spec + " has " + std::to_string(w.size()) +
                      " elements, too many to look at (at most 16M)");
  app = std::make_unique<viewer>(entry, given, std::move(w), *win);
  std::size_t next = 0;
  while (win->open()) {
    win->poll();
    if (next < script.size()) app->command(script[next++]);
    if (!win->open()) break;
    app->draw();
    gl::context::get().check("winnow view: frame");
    win->swap();
  }
  return 0;
}

} // namespace winnow::view
