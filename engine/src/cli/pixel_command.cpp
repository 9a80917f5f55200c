#include "cli/pixel_command.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>

#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/pixel.h"
#include "cli/engine_cli.h"
#include "json/json.h"

namespace caveman::engine_cli {
namespace {

constexpr const char* kPixelFooter =
    "pixel render writes <file>.px1.png, <file>.px2.png, … and prints one JSON line per page\n"
    "and a summary line; --max-pages caps the pages (the rest is reported as omittedChars).\n"
    "pixel simulate prints the request transform's TransformInfo (no network, nothing stored).\n"
    "Density: --density, else --dense (max), else CAVE_PIXEL_DENSITY, else balanced.\n"
    "exit codes: 0 ok, 1 error (also a usage error after render or simulate), 2 no verb\n"
    "environment: CAVE_PIXEL_DENSITY, CAVE_PIXEL_MODELS\n";

constexpr std::size_t kMaxFileBytes = 64ULL * 1024 * 1024;

bool read_file(const std::string& path, std::string& out, std::string& problem) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = std::string(codes::kFileNotFound) + ": cannot read " + path;
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = std::move(ss).str();
  if (out.size() > kMaxFileBytes) {
    problem = std::string(codes::kInputTooLarge) + ": " + path + " exceeds 67108864 bytes";
    return false;
  }
  return true;
}

// Validators that accept what the render and simulate options name.
CLI::Validator density_check() {
  return {[](std::string& v) -> std::string {
            return pixel::parse_density(v) ? "" : "unknown density: " + v;
          },
          "conservative|balanced|max", "density"};
}

std::optional<pixel::WireFormat> wire_format(std::string_view name) {
  for (auto f : {pixel::WireFormat::kAnthropic, pixel::WireFormat::kOpenAiChat,
                 pixel::WireFormat::kOpenAiResponses, pixel::WireFormat::kGemini}) {
    if (pixel::wire_format_name(f) == name) return f;
  }
  return std::nullopt;
}

CLI::Validator format_check() {
  return {[](std::string& v) -> std::string { return wire_format(v) ? "" : "unknown format: " + v; },
          "anthropic|openai-chat|openai-responses|gemini", "format"};
}

Status write_png(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return Status::Io(codes::kIoError, "cannot write " + path);
  ::chmod(path.c_str(), 0644);
  return Status::Ok();
}

int cmd_render(const PixelFlags& f, std::ostream& out, std::ostream& err, PixelEnv env) {
  pixel::RenderOptions options = f.render;
  if (f.no_reflow) options.reflow = false;
  const std::string& file = f.file;
  std::optional<pixel::Density> flag_density =
      f.density ? pixel::parse_density(*f.density) : std::nullopt;
  const bool dense = f.dense;
  // Density: flag > --dense > env > balanced.
  std::optional<std::string> env_density = env("CAVE_PIXEL_DENSITY");
  options.density = flag_density ? *flag_density
                    : dense      ? pixel::Density::kMax
                                 : pixel::density_from_env(env_density ? std::optional<std::string_view>(*env_density)
                                                                       : std::nullopt);
  std::string text, problem;
  if (!read_file(file, text, problem)) {
    base::stream_logger(err)->error("pixel render: {}", problem);
    return kExitError;
  }
  Result<pixel::RenderResult> r = pixel::render(text, options);
  if (!r.ok()) {
    base::stream_logger(err)->error("pixel render: {}", r.status().ToString());
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
      base::stream_logger(err)->error("pixel render: {}", s.ToString());
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

int cmd_simulate(const PixelFlags& f, std::ostream& out, std::ostream& err, PixelEnv env) {
  const std::string& file = f.file;
  std::optional<pixel::Density> flag_density =
      f.density ? pixel::parse_density(*f.density) : std::nullopt;
  std::string body, problem;
  if (!read_file(file, body, problem)) {
    base::stream_logger(err)->error("pixel simulate: {}", problem);
    return kExitError;
  }
  std::optional<pixel::WireFormat> sniffed =
      f.format ? wire_format(*f.format) : pixel::sniff_wire_format(body);
  if (!sniffed) {
    base::stream_logger(err)->error(
        "pixel simulate: {}: no `input`, `contents` or `messages` in {}", codes::kInvalidInput,
        file);
    return kExitError;
  }
  const pixel::WireFormat format = *sniffed;
  pixel::TransformOptions options;
  options.model = f.model;
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
    info.format = std::string(pixel::wire_format_name(format));
    out << info.to_json() << "\n";
    return kExitOk;
  }
  pixel::TransformOutput t = pixel::transform_request(body, format, options, nullptr);
  out << t.info.to_json() << "\n";
  return kExitOk;
}

}  // namespace

std::optional<std::string> process_pixel_env(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only CLI use
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

void add_pixel_commands(CLI::App& pixel, PixelFlags* f) {
  pixel.footer(kPixelFooter);
  CLI::App* render = pixel.add_subcommand("render", "Text file -> PNG pages next to it");
  render->add_option("file", f->file, "The text file")->required();
  render->add_option("--cols", f->render.cols, "Columns per line (default: as many as fit)")
      ->transform(base::decimal())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  render->add_option("--multicol", f->render.multicol, "Side-by-side columns per page")
      ->transform(base::decimal())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  render->add_option("--max-pages", f->render.max_pages, "Page cap (default 64)")
      ->transform(base::decimal())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  render->add_option("--density", f->density, "Glyph density")->check(density_check());
  render->add_flag("--dense", f->dense, "Same as --density max");
  render->add_flag("--no-reflow", f->no_reflow, "Keep the text's own line breaks");
  CLI::App* simulate =
      pixel.add_subcommand("simulate", "Dry run of the proxy's request transform on a request body");
  simulate->add_option("request", f->file, "The request JSON file")->required();
  simulate->add_option("--model", f->model, "The model (default: the request's)");
  simulate->add_option("--density", f->density, "Glyph density")->check(density_check());
  simulate->add_option("--format", f->format, "Wire format (default: sniffed)")->check(format_check());
}

int run_pixel(const PixelFlags& f, const std::string& pixel_help, std::ostream& out,
              std::ostream& err, PixelEnv env) {
  if (f.verb == "render") return cmd_render(f, out, err, env);
  if (f.verb == "simulate") return cmd_simulate(f, out, err, env);
  err << pixel_help;
  return kExitUsage;
}

int run_pixel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                      PixelEnv env) {
  std::vector<std::string> line{"pixel"};
  line.insert(line.end(), args.begin(), args.end());
  std::istringstream no_input;
  return run_engine_cli(line, no_input, out, err, env);
}

}  // namespace caveman::engine_cli
