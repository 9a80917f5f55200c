// Text → PNG pages (docs/pixel.md#text-handling): reflow, layout into fixed cells, paint, encode.
#include <algorithm>
#include <array>

#include "caveman/base/codes.h"
#include "caveman/pixel.h"
#include "pixel/atlas.h"
#include "pixel/png.h"
#include "text/utf8.h"

namespace caveman::pixel {
namespace {

constexpr int kGlyphW = 5;
constexpr int kGlyphH = 8;
constexpr int kTab = 4;
constexpr int kGutterCells = 2;  // between --multicol columns
// The second layer of `max` sits half a cell right and half a line down, between the first
// layer's glyphs, in a colour family of its own.
constexpr int kLayer2Dx = 2;
constexpr int kLayer2Dy = 3;
constexpr char32_t kReturnSymbol = 0x21B5;  // ↵

using Rgb = std::array<std::uint8_t, 3>;
// Zebra palettes: neighbours (horizontal, vertical, diagonal) never share a colour, so the
// 1-px overlap of a 4-px advance / 6-px pitch stays attributable. Layer 1 warm, layer 2 cool.
constexpr std::array<Rgb, 3> kLayer1 = {{{0, 0, 0}, {170, 20, 20}, {20, 60, 190}}};
constexpr std::array<Rgb, 3> kLayer2 = {{{200, 0, 160}, {0, 130, 60}, {210, 110, 0}}};

struct Cell {
  GlyphRef glyph;
};
using Line = std::vector<Cell>;

// The glyph for a code point after the control-character mapping; counts what had to become
// the replacement glyph.
GlyphRef glyph_for(char32_t cp, bool valid, std::int64_t& dropped) {
  if (valid) {
    if (cp < 0x20) cp = 0x2400 + cp;  // C0 controls → Control Pictures (␀ … ␟)
    if (cp == 0x7F) cp = 0x2421;      // ␡
    GlyphRef g = find_glyph(cp);
    if (g.data != nullptr) return g;
  }
  ++dropped;
  return find_glyph(text::kReplacementChar);
}

struct Layout {
  int line_cells;            // cells per line
  std::size_t lines_per_page;
};

class Paginator {
 public:
  Paginator(const Layout& layout, int max_pages) : layout_(layout), max_pages_(max_pages) {}

  // False once the page cap is reached (the caller stops and counts the rest as omitted).
  bool put(GlyphRef g) {
    if (!ensure_line()) return false;
    if (break_pending_ || static_cast<int>(line_->size()) + g.cells > layout_.line_cells) {
      break_pending_ = false;
      if (!new_line()) return false;
    }
    line_->push_back(Cell{g});
    if (g.cells == 2) line_->push_back(Cell{GlyphRef{}});  // the wide glyph's right half
    ++page_chars_.back();
    return true;
  }
  // A break opens the next line lazily, so a trailing newline adds no empty line.
  bool line_break() {
    if (!ensure_line()) return false;
    if (break_pending_ && !new_line()) return false;
    break_pending_ = true;
    return true;
  }
  // The current line's cell count (0 before the first character or right after a break).
  std::size_t line_cells_used() const { return line_ == nullptr || break_pending_ ? 0 : line_->size(); }
  void note_dropped(std::int64_t n) {
    if (!pages_.empty()) page_dropped_.back() += n;
  }
  std::vector<std::vector<Line>>& pages() { return pages_; }
  std::vector<std::int64_t>& page_chars() { return page_chars_; }
  std::vector<std::int64_t>& page_dropped() { return page_dropped_; }

 private:
  bool ensure_line() {
    if (line_ != nullptr) return true;
    return new_line();
  }
  bool new_line() {
    if (pages_.empty() || pages_.back().size() >= layout_.lines_per_page) {
      if (static_cast<int>(pages_.size()) >= max_pages_) return false;
      pages_.emplace_back();
      page_chars_.push_back(0);
      page_dropped_.push_back(0);
    }
    pages_.back().emplace_back();
    line_ = &pages_.back().back();
    return true;
  }

  Layout layout_;
  int max_pages_;
  std::vector<std::vector<Line>> pages_;
  std::vector<std::int64_t> page_chars_;
  std::vector<std::int64_t> page_dropped_;
  Line* line_ = nullptr;
  bool break_pending_ = false;
};

// Multiply-blends coverage a (0..15) of colour c into the pixel at p.
void blend(std::uint8_t* p, int channels, int a, const Rgb& c) {
  for (int k = 0; k < channels; ++k) {
    int ink = channels == 1 ? 0 : c[static_cast<std::size_t>(k)];
    int keep = 255 * 15 - a * (255 - ink);  // (1 − a·(1 − ink)) scaled by 255·15
    p[k] = static_cast<std::uint8_t>((p[k] * keep + (255 * 15) / 2) / (255 * 15));
  }
}

struct PagePaint {
  std::vector<std::uint8_t> pixels;
  int width = 0;
  int height = 0;
  int channels = 1;
  int layers = 1;
};

PagePaint paint(const std::vector<Line>& lines, const Profile& p, int rows, int line_cells,
                int multicol) {
  PagePaint out;
  out.channels = p.zebra ? 3 : 1;
  // Extent first: the page is cropped to what it uses.
  int max_x = 0, max_y = 0;
  struct Slot {
    int x0, y0, row, layer;
  };
  // Lines are spread evenly over the page's blocks (layers or columns) so a short last page
  // is as low as it can be; reading order stays block by block.
  int blocks = std::max(p.layers, multicol);
  int rows_used = std::min(rows, std::max(1, static_cast<int>((lines.size() + static_cast<std::size_t>(blocks) - 1) /
                                                                 static_cast<std::size_t>(blocks))));
  auto slot_of = [&](std::size_t li) {
    int block = static_cast<int>(li) / rows_used;
    int row = static_cast<int>(li) % rows_used;
    Slot s{kPadding, kPadding + row * p.pitch, row, 0};
    if (p.layers == 2) {
      s.layer = block;
      if (block == 1) {
        s.x0 += kLayer2Dx;
        s.y0 += kLayer2Dy;
      }
    } else {
      s.x0 += block * (line_cells + kGutterCells) * p.advance;
    }
    return s;
  };
  for (std::size_t li = 0; li < lines.size(); ++li) {
    Slot s = slot_of(li);
    int cells = std::max<int>(1, static_cast<int>(lines[li].size()));
    max_x = std::max(max_x, s.x0 + (cells - 1) * p.advance + kGlyphW);
    max_y = std::max(max_y, s.y0 + kGlyphH);
    if (s.layer == 1) out.layers = 2;
  }
  out.width = max_x + kPadding;
  out.height = max_y + kPadding;
  out.pixels.assign(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) *
                        static_cast<std::size_t>(out.channels),
                    255);
  for (std::size_t li = 0; li < lines.size(); ++li) {
    Slot s = slot_of(li);
    const auto& palette = s.layer == 1 ? kLayer2 : kLayer1;
    for (std::size_t ci = 0; ci < lines[li].size(); ++ci) {
      const GlyphRef& g = lines[li][ci].glyph;
      if (g.data == nullptr) continue;
      const Rgb& colour = p.zebra ? palette[(ci + static_cast<std::size_t>(s.row)) % 3] : kLayer1[0];
      int gx = s.x0 + static_cast<int>(ci) * p.advance;
      for (int y = 0; y < kGlyphH; ++y) {
        for (int x = 0; x < kGlyphW * g.cells; ++x) {
          int a = glyph_pixel(g, x, y);
          if (a == 0) continue;
          int px = gx + x, py = s.y0 + y;
          if (px >= out.width || py >= out.height) continue;
          std::size_t at = (static_cast<std::size_t>(py) * static_cast<std::size_t>(out.width) +
                            static_cast<std::size_t>(px)) *
                           static_cast<std::size_t>(out.channels);
          blend(&out.pixels[at], out.channels, a, colour);
        }
      }
    }
  }
  return out;
}

}  // namespace

std::string reflow(std::string_view input) {
  std::string out;
  out.reserve(input.size() + input.size() / 16);
  std::string line;
  std::size_t newlines = 0;  // newlines since the last non-blank line
  bool first = true;
  std::size_t i = 0;
  while (true) {
    std::size_t nl = input.find('\n', i);
    std::string_view raw = input.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
    if (!first) ++newlines;
    first = false;
    // TAB expansion to the next multiple of 4 (columns counted in code points).
    line.clear();
    std::size_t col = 0;
    for (std::size_t k = 0; k < raw.size();) {
      std::size_t len = std::max<std::size_t>(1, text::decode_utf8(raw, k).len);
      if (raw[k] == '\t') {
        std::size_t spaces = kTab - col % kTab;
        line.append(spaces, ' ');
        col += spaces;
      } else {
        line.append(raw.substr(k, len));
        ++col;
      }
      k += len;
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\f' ||
                             line.back() == '\v')) {
      line.pop_back();
    }
    if (!line.empty()) {
      // Runs of ≥ 4 newlines collapse to 3 (at most two blank lines survive).
      for (std::size_t r = 0; r < std::min<std::size_t>(newlines, 3); ++r) text::append_utf8(out, kReturnSymbol);
      newlines = 0;
      out += line;
    }
    if (nl == std::string_view::npos) break;
    i = nl + 1;
  }
  return out;  // trailing newlines carry nothing and are dropped
}

Result<RenderResult> render(std::string_view input, const RenderOptions& options) {
  if (options.cols < 0 || options.multicol < 1 || options.max_pages < 1) {
    return Status::InvalidArgument(
        codes::kInvalidArguments,
        "pixel render: cols ≥ 0, multicol ≥ 1 and max_pages ≥ 1 required");
  }
  RenderResult result;
  result.density = options.multicol > 1 ? Density::kConservative : options.density;
  Profile p = profile_for(result.density);
  int fit = columns_for(p, options.tier);
  int rows = rows_for(p, options.tier);
  int total_cells = options.cols > 0 ? std::min(options.cols, fit) : fit;
  int line_cells = total_cells;
  if (options.multicol > 1) {
    line_cells = (total_cells - (options.multicol - 1) * kGutterCells) / options.multicol;
    if (line_cells < 2) {
      return Status::InvalidArgument(codes::kInvalidArguments,
                                     "pixel render: too many columns for the page");
    }
  }
  line_cells = std::max(line_cells, 2);  // a wide glyph must fit on a line
  Layout layout{line_cells, static_cast<std::size_t>(rows) *
                                static_cast<std::size_t>(p.layers > 1 ? p.layers : options.multicol)};

  std::string reflowed;
  std::string_view text = input;
  if (options.reflow) {
    reflowed = reflow(input);
    text = reflowed;
  }
  Paginator pager(layout, options.max_pages);
  std::size_t i = 0;
  bool stopped = false;
  while (i < text.size()) {
    text::Decoded d = text::decode_utf8(text, i);
    std::size_t len = std::max<std::size_t>(1, d.len);
    char32_t cp = d.cp;
    bool ok = true;
    if (!options.reflow && text[i] == '\n') {
      ok = pager.line_break();
    } else if (!options.reflow && text[i] == '\t') {
      ok = pager.put(find_glyph(' '));  // expanded below to the next multiple of 4
      // Tab stops are per line: count the cells of the current (possibly just wrapped) line.
      while (ok && pager.line_cells_used() % kTab != 0) {
        ok = pager.put(find_glyph(' '));
        if (ok) --pager.page_chars().back();  // padding cells are not characters
      }
    } else if (!options.reflow && text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      // CRLF: the '\n' ends the line.
    } else {
      std::int64_t dropped = 0;
      GlyphRef g = glyph_for(cp, d.valid, dropped);
      ok = pager.put(g);
      if (ok) pager.note_dropped(dropped);
    }
    if (!ok) {
      stopped = true;
      break;
    }
    ++result.chars_total;
    i += len;
  }
  if (stopped) {
    std::size_t rest = text::rune_count(text.substr(i));
    result.omitted_chars = static_cast<std::int64_t>(rest);
    result.chars_total += result.omitted_chars;
  }
  auto& pages = pager.pages();
  for (std::size_t k = 0; k < pages.size(); ++k) {
    PagePaint painted = paint(pages[k], p, rows, line_cells, options.multicol);
    Result<std::string> png = encode_png(painted.width, painted.height, painted.channels, painted.pixels);
    if (!png.ok()) return png.status();
    Page page;
    page.png = std::move(png).value();
    page.width = painted.width;
    page.height = painted.height;
    page.layers = painted.layers;
    page.chars_rendered = pager.page_chars()[k];
    page.dropped_chars = pager.page_dropped()[k];
    result.pages.push_back(std::move(page));
  }
  return result;
}

}  // namespace caveman::pixel
