#include "cli/pixel_command.h"

#include <sys/stat.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

#include "caveman/pixel.h"
#include "cli/engine_cli.h"
#include "json/json.h"

namespace caveman::engine_cli {
namespace {

constexpr const char* kPixelUsage =
    "usage: caveman-engine pixel render [--cols N] [--multicol N] [--density L] [--dense]\n"
    "                                   [--no-reflow] [--max-pages N] <file>\n"
    "       caveman-engine pixel simulate [--model M] [--density L] [--format F] <request.json>\n"
    "render: writes <file>.px1.png, <file>.px2.png, … and prints one JSON line per page and a\n"
    "        summary line. simulate: prints the request transform's TransformInfo (no network,\n"
    "        nothing stored). L = conservative | balanced | max (--dense = max);\n"
    "        --max-pages: page cap (default 64; the rest is reported as omittedChars);\n"
    "        F = anthropic | openai-chat | openai-responses | gemini (default: sniffed).\n"
    "environment: CAVE_PIXEL_DENSITY, CAVE_PIXEL_MODELS\n";

constexpr std::size_t kMaxFileBytes = 64ULL * 1024 * 1024;

int usage_error(std::ostream& err, std::string_view verb, std::string_view problem) {
  err << "pixel " << verb << ": cave_invalid_arguments: " << problem << "\n" << kPixelUsage;
  return kExitError;
}

bool read_file(const std::string& path, std::string& out, std::string& problem) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "cave_file_not_found: cannot read " + path;
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = std::move(ss).str();
  if (out.size() > kMaxFileBytes) {
    problem = "cave_input_too_large: " + path + " exceeds 67108864 bytes";
    return false;
  }
  return true;
}

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "--flag=value" or "--flag value".
bool take_value(const std::vector<std::string>& args, std::size_t& i, std::string_view flag,
                std::string& value) {
  const std::string& a = args[i];
  if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
    value = a.substr(flag.size() + 1);
    return true;
  }
  if (a != flag) return false;
  if (i + 1 >= args.size()) {
    value.clear();
    value.push_back('\0');  // marks "missing"
    return true;
  }
  value = args[++i];
  return true;
}

Status write_png(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return Status::Io("cave_io_error", "cannot write " + path);
  ::chmod(path.c_str(), 0644);
  return Status::Ok();
}

int cmd_render(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, PixelEnv env) {
  pixel::RenderOptions options;
  std::optional<pixel::Density> flag_density;
  bool dense = false;
  std::string file;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (take_value(args, i, "--cols", v)) {
      std::optional<int> n = parse_int(v);
      if (!n || *n < 1) return usage_error(err, "render", "--cols needs a positive integer");
      options.cols = *n;
    } else if (take_value(args, i, "--max-pages", v)) {
      std::optional<int> n = parse_int(v);
      if (!n || *n < 1) return usage_error(err, "render", "--max-pages needs a positive integer");
      options.max_pages = *n;
    } else if (take_value(args, i, "--multicol", v)) {
      std::optional<int> n = parse_int(v);
      if (!n || *n < 1) return usage_error(err, "render", "--multicol needs a positive integer");
      options.multicol = *n;
    } else if (take_value(args, i, "--density", v)) {
      flag_density = pixel::parse_density(v);
      if (!flag_density) return usage_error(err, "render", "unknown density: " + v);
    } else if (args[i] == "--dense") {
      dense = true;
    } else if (args[i] == "--no-reflow") {
      options.reflow = false;
    } else if (args[i].rfind("--", 0) == 0) {
      return usage_error(err, "render", "unknown flag: " + args[i]);
    } else if (file.empty()) {
      file = args[i];
    } else {
      return usage_error(err, "render", "one file only");
    }
  }
  if (file.empty()) return usage_error(err, "render", "missing <file>");
  // Density: flag > --dense > env > balanced.
  std::optional<std::string> env_density = env("CAVE_PIXEL_DENSITY");
  options.density = flag_density ? *flag_density
                    : dense      ? pixel::Density::kMax
                                 : pixel::density_from_env(env_density ? std::optional<std::string_view>(*env_density)
                                                                       : std::nullopt);
  std::string text, problem;
  if (!read_file(file, text, problem)) {
    err << "pixel render: " << problem << "\n";
    return kExitError;
  }
  Result<pixel::RenderResult> r = pixel::render(text, options);
  if (!r.ok()) {
    err << "pixel render: " << r.status().ToString() << "\n";
    return kExitError;
  }
  std::string density(pixel::density_name(r->density));
  std::string lines;
  std::int64_t image_tokens = 0;
  int max_layers = 1;
  for (std::size_t k = 0; k < r->pages.size(); ++k) {
    const pixel::Page& p = r->pages[k];
    std::string path = file + ".px" + std::to_string(k + 1) + ".png";
    if (Status s = write_png(path, p.png); !s.ok()) {
      err << "pixel render: " << s.ToString() << "\n";
      return kExitError;
    }
    std::int64_t est = pixel::image_tokens(p.width, p.height, pixel::Tier::kStandard);
    image_tokens += est;
    max_layers = std::max(max_layers, p.layers);
    lines += "{\"width\":" + std::to_string(p.width) + ",\"height\":" + std::to_string(p.height) +
             ",\"charsRendered\":" + std::to_string(p.chars_rendered) +
             ",\"droppedChars\":" + std::to_string(p.dropped_chars) + ",\"estTokens\":" + std::to_string(est) +
             ",\"density\":" + json::quote(density) + (p.layers == 2 ? ",\"layers\":2" : "") + "}\n";
  }
  lines += "{\"summary\":true,\"pages\":" + std::to_string(r->pages.size()) +
           ",\"textEstTokens\":" + std::to_string(pixel::text_tokens_estimate(text)) +
           ",\"imageEstTokens\":" + std::to_string(image_tokens) + ",\"density\":" + json::quote(density) +
           (max_layers == 2 ? ",\"layers\":2" : "") +
           (r->omitted_chars > 0 ? ",\"omittedChars\":" + std::to_string(r->omitted_chars) : "") + "}\n";
  out << lines;
  return kExitOk;
}

int cmd_simulate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, PixelEnv env) {
  std::string model, file;
  std::optional<pixel::Density> flag_density;
  std::optional<pixel::WireFormat> format;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (take_value(args, i, "--model", v)) {
      if (v == std::string(1, '\0')) return usage_error(err, "simulate", "--model needs a value");
      model = v;
    } else if (take_value(args, i, "--density", v)) {
      flag_density = pixel::parse_density(v);
      if (!flag_density) return usage_error(err, "simulate", "unknown density: " + v);
    } else if (take_value(args, i, "--format", v)) {
      for (auto f : {pixel::WireFormat::kAnthropic, pixel::WireFormat::kOpenAiChat,
                     pixel::WireFormat::kOpenAiResponses, pixel::WireFormat::kGemini}) {
        if (pixel::wire_format_name(f) == v) format = f;
      }
      if (!format) return usage_error(err, "simulate", "unknown format: " + v);
    } else if (args[i].rfind("--", 0) == 0) {
      return usage_error(err, "simulate", "unknown flag: " + args[i]);
    } else if (file.empty()) {
      file = args[i];
    } else {
      return usage_error(err, "simulate", "one request file only");
    }
  }
  if (file.empty()) return usage_error(err, "simulate", "missing <request.json>");
  std::string body, problem;
  if (!read_file(file, body, problem)) {
    err << "pixel simulate: " << problem << "\n";
    return kExitError;
  }
  if (!format) format = pixel::sniff_wire_format(body);
  if (!format) {
    err << "pixel simulate: cave_invalid_input: no `input`, `contents` or `messages` in " << file << "\n";
    return kExitError;
  }
  pixel::TransformOptions options;
  options.model = model;
  std::optional<std::string> env_density = env("CAVE_PIXEL_DENSITY");
  options.density = flag_density ? *flag_density
                                 : pixel::density_from_env(env_density ? std::optional<std::string_view>(*env_density)
                                                                       : std::nullopt);
  if (options.model.empty()) {
    std::optional<json::Value> doc = json::parse(body);
    const json::Value* m = doc && doc->is_object() ? doc->find("model") : nullptr;
    if (m != nullptr && m->is_string()) options.model = m->text;
  }
  // Fail closed like the proxy: a model outside CAVE_PIXEL_MODELS never gets an image.
  std::optional<std::string> env_models = env("CAVE_PIXEL_MODELS");
  std::vector<std::string> allow =
      pixel::allowlist_from_env(env_models ? std::optional<std::string_view>(*env_models) : std::nullopt);
  if (!pixel::model_allowed(options.model, allow)) {
    pixel::TransformInfo info;
    info.reason = options.model.empty() ? "model_not_allowed (no model)" : "model_not_allowed (" + options.model + ")";
    info.format = std::string(pixel::wire_format_name(*format));
    out << info.to_json() << "\n";
    return kExitOk;
  }
  pixel::TransformOutput t = pixel::transform_request(body, *format, options, nullptr);
  out << t.info.to_json() << "\n";
  return kExitOk;
}

}  // namespace

std::optional<std::string> process_pixel_env(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only CLI use
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

int run_pixel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, PixelEnv env) {
  if (args.empty()) {
    err << kPixelUsage;
    return kExitUsage;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    out << kPixelUsage;
    return kExitOk;
  }
  if (args[0] == "render") return cmd_render(args, out, err, env);
  if (args[0] == "simulate") return cmd_simulate(args, out, err, env);
  err << "pixel: cave_invalid_arguments: unknown pixel verb: " << args[0] << "\n" << kPixelUsage;
  return kExitError;
}

}  // namespace caveman::engine_cli
