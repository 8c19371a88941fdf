// `winnow trace`: one shader-era algorithm on one case, pass by pass on its own untimed path, every
// pass's output read back and drawn (common/shader_era/trace.hpp): NN-<phase>-<pass>.png per pass,
// contact.png with all of them, trace.json describing them.
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "memory.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"
#include "winnow/shader_era/trace.hpp"

namespace winnow::cli {
namespace {

std::string file_name(const shader_era::traced_pass& p) {
  std::string s = (p.number < 10 ? "0" : "") + std::to_string(p.number) + "-" + p.phase + "-" + p.name;
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += static_cast<char>(std::tolower(u));
    else if (c == '+') out += "plus";
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out + ".png";
}

/// Whether `name` is as file_name() makes them: NN-words-of-letters-and-digits.png.
bool is_pass_picture(const std::string& name) {
  static const std::regex pattern("[0-9]{2,}-[a-z0-9-]+\\.png");
  return std::regex_match(name, pattern);
}

/// Creates `dir` and proves it can be written, before anything runs.
void check_writable(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw usage_error("trace --out " + dir.string() + ": cannot create it (" + ec.message() + ")");
  try {
    write_atomically(dir / ".winnow-write-test", "");
    std::filesystem::remove(dir / ".winnow-write-test");
  } catch (const error& e) { throw usage_error("trace --out " + dir.string() + ": cannot write there"); }
}

} // namespace

bool shader_era_algorithm(const algorithm_info& info) { return shader_era::runs_plans(info); }

params parse_params(const std::vector<std::string>& given) {
  params out;
  for (const auto& p : given) {
    auto [k, v] = parse_param(p);
    if (out.contains(k)) throw usage_error("--param " + k + " given twice");
    out[k] = v;
  }
  return out;
}

int trace_command(const trace_args& a) {
  if (a.out.empty()) throw usage_error("trace: --out DIR is required");
  const registry& reg = all_backends();
  const algorithm_entry& entry = reg.find(a.algo);
  if (!shader_era_algorithm(entry.info))
    throw usage_error(
        "trace: " + a.algo +
        " is not a shader-era algorithm (gl/, vkfrag/ or vk/ horn, jj, rlz, bt; gl/ or vkfrag/ histopyramid)");
  const params given = parse_params(a.params);
  const param_set resolved = resolve_params(entry.info, given);
  const case_spec spec = parse_spec(a.spec);
  if (spec.n > shader_era::max_traced_elements)
    throw usage_error("trace: " + to_string(spec) + " has " + std::to_string(spec.n) +
                      " elements, too many to look at (at most 16M)");
  check_fits(spec);
  check_writable(a.out);
  if (auto reason = reg.unavailable_reason(entry.info.api)) {
    std::cerr << "winnow trace: " << entry.info.api << " cannot run here: " << *reason << "\n";
    return 1;
  }
  const workload w = generate(spec);
  if (w.size() > shader_era::max_traced_elements)
    throw usage_error("trace: " + w.spec + " has " + std::to_string(w.size()) +
                      " elements, too many to look at (at most 16M)");

  auto made = entry.make();
  auto* algo = dynamic_cast<shader_era::plan_algorithm*>(made.get());
  if (!algo) throw error("trace: " + a.algo + " does not run on the shader-era frame");
  algo->prepare(w, resolved, {});
  const auto timer = algo->make_timer();
  const auto passes = shader_era::trace(*algo, *timer);
  const device_info dev = reg.device(entry.info.api);

  namespace fs = std::filesystem;
  nlohmann::ordered_json j;
  j["algorithm"] = entry.info.full_name();
  j["params"] = resolved.texts();
  j["case"] = w.spec;
  j["n"] = w.size();
  j["device"] = dev.device;
  j["driver"] = dev.driver;
  j["layout"] = {{"width", algo->the_plan().layout.width}, {"height", algo->the_plan().layout.height}};
  // The HistoPyramid has no blocks.
  j["block"] =
      algo->the_plan().algorithm == shader_era::algorithm_kind::histopyramid ? 0u : algo->the_plan().params.block;
  j["passes"] = nlohmann::ordered_json::array();
  for (const auto& p : passes) {
    shader_era::image_rect rect;
    const int scale = shader_era::scale_for(p);
    const std::string file = file_name(p);
    write_atomically(fs::path(a.out) / file, shader_era::pass_picture(p, w.size(), scale, &rect).png());
    nlohmann::ordered_json pass = shader_era::to_json(p);
    pass["file"] = file;
    pass["image"] = {{"x", rect.x0}, {"y", rect.y0}, {"scale", rect.scale}};
    j["passes"].push_back(std::move(pass));
  }
  const std::string title =
      entry.info.full_name() + "  " + to_string(resolved.texts()) + "\n" + w.spec + "  (" + dev.device + ")";
  write_atomically(fs::path(a.out) / "contact.png", shader_era::contact_sheet(passes, w.size(), title).png());
  j["contact"] = "contact.png";
  write_atomically(fs::path(a.out) / "trace.json", j.dump(2) + "\n");
  // An earlier trace into this folder (another algorithm, more passes) leaves pictures trace.json no
  // longer lists: they go, so the folder holds one trace.
  std::set<std::string> mine;
  for (const auto& p : passes) mine.insert(file_name(p));
  for (const auto& e : fs::directory_iterator(a.out))
    if (e.is_regular_file() && is_pass_picture(e.path().filename().string()) &&
        !mine.contains(e.path().filename().string()))
      fs::remove(e.path());
  std::cout << "wrote " << passes.size() << " passes of " << entry.info.full_name() << " on " << w.spec << " ("
            << dev.device << "): " << a.out << "/NN-*.png, contact.png, trace.json\n";
  return 0;
}

} // namespace winnow::cli
