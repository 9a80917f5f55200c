#include "view_diff.h"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "caveman/base/split.h"

namespace caveman::browse {
namespace {

constexpr int kShownRemovedSiblings = 1;

enum class Op : std::uint8_t { kSame, kDel, kAdd };
struct Step {
  Op op;
  int a;  // index in the old view (kSame, kDel)
  int b;  // index in the new view (kSame, kAdd)
};

struct Side {
  std::vector<ViewLine> lines;
  std::vector<int> parent;        // -1 at the top level
  std::vector<std::string> text;  // the line without the `focused` state
  std::vector<std::string> key;   // what lines are matched by
  std::vector<std::size_t> hash;  // of key
};

// Focus moves with every click; on its own it is not a change worth reporting.
std::string without_focus(const std::string& text) {
  if (text.empty() || text.back() != '}') return text;
  std::size_t open = text.rfind(" {");
  if (open == std::string::npos) return text;
  std::string states = text.substr(open + 2, text.size() - open - 3), kept;
  std::size_t pos = 0;
  while (pos <= states.size()) {
    std::size_t comma = std::min(states.find(',', pos), states.size());
    std::string one = states.substr(pos, comma - pos);
    if (one != "focused") kept += (kept.empty() ? "" : ",") + one;
    pos = comma + 1;
  }
  return text.substr(0, open) + (kept.empty() ? "" : " {" + kept + "}");
}

Side make_side(std::string_view outline) {
  Side s;
  s.lines = parse_view(outline);
  std::vector<int> stack;  // open ancestors by depth
  for (std::size_t i = 0; i < s.lines.size(); ++i) {
    const ViewLine& l = s.lines[i];
    while (!stack.empty() && s.lines[static_cast<std::size_t>(stack.back())].depth >= l.depth) stack.pop_back();
    s.parent.push_back(stack.empty() ? -1 : stack.back());
    stack.push_back(static_cast<int>(i));
    s.text.push_back(without_focus(l.text));
  }
  // A container without uid (`listitem`, `row`) is told apart from its siblings by its first
  // child, so removing one of several alike items removes that item, not its neighbour's lines.
  for (std::size_t i = 0; i < s.lines.size(); ++i) {
    bool container = s.lines[i].uid.empty() && i + 1 < s.lines.size() && s.lines[i + 1].depth > s.lines[i].depth;
    s.key.push_back(container ? s.text[i] + '\x1f' + s.text[i + 1] : s.text[i]);
    s.hash.push_back(std::hash<std::string>{}(s.key[i]) * 31 + static_cast<std::size_t>(s.lines[i].depth));
  }
  return s;
}

bool same(const Side& x, int i, const Side& y, int j) {
  auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
  return x.hash[a] == y.hash[b] && x.lines[a].depth == y.lines[b].depth && x.key[a] == y.key[b];
}

// The edit script: common head, LCS of the middle (deletions before additions), common tail.
std::optional<std::vector<Step>> edit_script(const Side& x, const Side& y) {
  int n = static_cast<int>(x.lines.size()), m = static_cast<int>(y.lines.size());
  int head = 0;
  while (head < n && head < m && same(x, head, y, head)) ++head;
  int tail = 0;
  while (tail < n - head && tail < m - head && same(x, n - 1 - tail, y, m - 1 - tail)) ++tail;
  auto rows = static_cast<std::size_t>(n - head - tail), cols = static_cast<std::size_t>(m - head - tail);
  if (rows * cols > kMaxDiffCells) return std::nullopt;
  // lcs[r][c] = LCS length of old[head+r..] and new[head+c..] (≤ 2048 under the cap).
  std::vector<std::uint16_t> lcs((rows + 1) * (cols + 1), 0);
  auto at = [&](std::size_t r, std::size_t c) -> std::uint16_t& { return lcs[r * (cols + 1) + c]; };
  for (std::size_t r = rows; r-- > 0;) {
    for (std::size_t c = cols; c-- > 0;) {
      at(r, c) = same(x, head + static_cast<int>(r), y, head + static_cast<int>(c))
                     ? static_cast<std::uint16_t>(at(r + 1, c + 1) + 1)
                     : std::max(at(r + 1, c), at(r, c + 1));
    }
  }
  std::vector<Step> steps;
  for (int k = 0; k < head; ++k) steps.push_back({Op::kSame, k, k});
  std::size_t r = 0, c = 0;
  while (r < rows || c < cols) {
    int a = head + static_cast<int>(r), b = head + static_cast<int>(c);
    if (r < rows && c < cols && same(x, a, y, b)) {
      steps.push_back({Op::kSame, a, b});
      ++r, ++c;
    } else if (r < rows && (c == cols || at(r + 1, c) >= at(r, c + 1))) {
      steps.push_back({Op::kDel, a, -1});
      ++r;
    } else {
      steps.push_back({Op::kAdd, -1, b});
      ++c;
    }
  }
  for (int k = tail; k > 0; --k) steps.push_back({Op::kSame, n - k, m - k});
  return steps;
}

// Builds the rendering from the script; see the header for the format.
class Renderer {
 public:
  Renderer(const Side& x, const Side& y, std::vector<Step> steps) : x_(x), y_(y), steps_(std::move(steps)) {
    old_to_new_.assign(x_.lines.size(), -1);
    pair_of_old_.assign(x_.lines.size(), -1);
    pair_of_new_.assign(y_.lines.size(), -1);
    for (const Step& s : steps_) {
      if (s.op == Op::kSame) old_to_new_[static_cast<std::size_t>(s.a)] = s.b;
    }
    pair_by_uid();
    pair_within_runs();
  }

  ViewDiff render(std::string_view target) {
    ViewDiff d;
    std::vector<int> inside = count_hidden();
    std::vector<bool> done_pair(x_.lines.size(), false);
    for (const Step& s : steps_) {
      if (s.op == Op::kSame) {
        flush_run();  // a kept line ends a run of removed siblings
        if (!target.empty() && y_.lines[static_cast<std::size_t>(s.b)].uid == target) emit_new('>', s.b);
      } else if (s.op == Op::kAdd) {
        int a = pair_of_new_[static_cast<std::size_t>(s.b)];
        if (a < 0) {
          ++d.added;
          emit_new('+', s.b);
        } else if (!done_pair[static_cast<std::size_t>(a)]) {
          done_pair[static_cast<std::size_t>(a)] = true;
          emit_changed(a, s.b, &d);
        }
      } else {
        auto a = static_cast<std::size_t>(s.a);
        int b = pair_of_old_[a];
        if (b >= 0) {
          if (!done_pair[a]) {
            done_pair[a] = true;
            emit_changed(s.a, b, &d);
          }
        } else {
          ++d.removed;
          if (hidden(s.a)) continue;
          emit_removed(s.a, inside[a]);
        }
      }
    }
    flush_run();
    d.text = std::move(out_);
    if (d.empty()) d.text.clear();
    return d;
  }

 private:
  bool removed(int a) const {
    return a >= 0 && old_to_new_[static_cast<std::size_t>(a)] < 0 && pair_of_old_[static_cast<std::size_t>(a)] < 0;
  }
  // A removed node inside a removed node is counted, not shown.
  bool hidden(int a) const { return removed(x_.parent[static_cast<std::size_t>(a)]); }

  void pair(int a, int b) {
    pair_of_old_[static_cast<std::size_t>(a)] = b;
    pair_of_new_[static_cast<std::size_t>(b)] = a;
    old_to_new_[static_cast<std::size_t>(a)] = b;
  }

  void pair_by_uid() {
    std::vector<std::pair<std::string, int>> added;
    for (const Step& s : steps_) {
      if (s.op == Op::kAdd && !y_.lines[static_cast<std::size_t>(s.b)].uid.empty()) {
        added.emplace_back(y_.lines[static_cast<std::size_t>(s.b)].uid, s.b);
      }
    }
    for (const Step& s : steps_) {
      if (s.op != Op::kDel) continue;
      const std::string& uid = x_.lines[static_cast<std::size_t>(s.a)].uid;
      if (uid.empty()) continue;
      for (auto& [u, b] : added) {
        if (b >= 0 && u == uid) {
          pair(s.a, b);
          b = -1;
          break;
        }
      }
    }
  }

  // Within one run of edits, the k-th removed and k-th added uid-less lines of the same role,
  // depth and parent are one node whose text changed.
  void pair_within_runs() {
    std::size_t k = 0;
    while (k < steps_.size()) {
      if (steps_[k].op == Op::kSame) {
        ++k;
        continue;
      }
      std::size_t end = k;
      while (end < steps_.size() && steps_[end].op != Op::kSame) ++end;
      for (std::size_t i = k; i < end; ++i) {
        if (steps_[i].op != Op::kDel) continue;
        int a = steps_[i].a;
        const ViewLine& ol = x_.lines[static_cast<std::size_t>(a)];
        if (!ol.uid.empty() || pair_of_old_[static_cast<std::size_t>(a)] >= 0) continue;
        int op = x_.parent[static_cast<std::size_t>(a)];
        int want_parent = op < 0 ? -1 : old_to_new_[static_cast<std::size_t>(op)];
        if (op >= 0 && want_parent < 0) continue;
        for (std::size_t j = k; j < end; ++j) {
          int b = steps_[j].b;
          if (steps_[j].op != Op::kAdd || pair_of_new_[static_cast<std::size_t>(b)] >= 0) continue;
          const ViewLine& nl = y_.lines[static_cast<std::size_t>(b)];
          if (nl.uid.empty() && nl.depth == ol.depth && nl.role == ol.role &&
              y_.parent[static_cast<std::size_t>(b)] == want_parent) {
            pair(a, b);
            break;
          }
        }
      }
      k = end;
    }
  }

  // For each shown removed line, how many removed lines lie inside it.
  std::vector<int> count_hidden() const {
    std::vector<int> inside(x_.lines.size(), 0);
    std::vector<int> shown_root(x_.lines.size(), -1);
    for (std::size_t a = 0; a < x_.lines.size(); ++a) {
      if (!removed(static_cast<int>(a))) continue;
      int p = x_.parent[a];
      if (removed(p)) {
        shown_root[a] = shown_root[static_cast<std::size_t>(p)];
        ++inside[static_cast<std::size_t>(shown_root[a])];
      } else {
        shown_root[a] = static_cast<int>(a);
      }
    }
    return inside;
  }

  // Indented one level less than the outline: the page line is not shown above.
  void line(char mark, int depth, const std::string& text) {
    out_ += mark;
    out_ += ' ';
    out_.append(static_cast<std::size_t>(std::max(depth - 1, 0)) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  // Prints the ancestors (in the new view) of the node under new-view `b` that the lines
  // just above do not already show, so every line reads under its own ancestors.
  void context(int b) {
    std::vector<int> chain;
    // The page line itself is left out: every line is on that page.
    for (int p = b; p >= 0 && y_.parent[static_cast<std::size_t>(p)] >= 0; p = y_.parent[static_cast<std::size_t>(p)]) {
      chain.push_back(p);
    }
    std::reverse(chain.begin(), chain.end());
    std::size_t keep = 0;
    while (keep < chain.size() && keep < path_.size() && chain[keep] == path_[keep]) ++keep;
    for (std::size_t k = keep; k < chain.size(); ++k) {
      auto i = static_cast<std::size_t>(chain[k]);
      line(' ', y_.lines[i].depth, y_.text[i]);
    }
    path_ = std::move(chain);
  }

  void emit_new(char mark, int b) {
    flush_run();
    context(y_.parent[static_cast<std::size_t>(b)]);
    path_.push_back(b);
    line(mark, y_.lines[static_cast<std::size_t>(b)].depth, y_.text[static_cast<std::size_t>(b)]);
  }

  // A container paired only through its first child is unchanged itself: context at most. A
  // node with a uid that moved is a change.
  void emit_changed(int a, int b, ViewDiff* d) {
    if (x_.lines[static_cast<std::size_t>(a)].uid.empty() &&
        x_.text[static_cast<std::size_t>(a)] == y_.text[static_cast<std::size_t>(b)]) {
      return;
    }
    ++d->changed;
    emit_new('~', b);
  }

  void emit_removed(int a, int inside) {
    int parent = x_.parent[static_cast<std::size_t>(a)];
    if (run_count_ > 0 && parent == run_parent_) {
      if (++run_count_ > kShownRemovedSiblings) return;
    } else {
      flush_run();
      run_parent_ = parent;
      run_count_ = 1;
      run_depth_ = x_.lines[static_cast<std::size_t>(a)].depth;
    }
    context(parent < 0 ? -1 : old_to_new_[static_cast<std::size_t>(parent)]);
    const std::string& text = x_.text[static_cast<std::size_t>(a)];
    int depth = x_.lines[static_cast<std::size_t>(a)].depth;
    line('-', depth, inside > 0 ? text + " … " + std::to_string(inside) + " more inside" : text);
  }

  void flush_run() {
    if (run_count_ > kShownRemovedSiblings) {
      line('-', run_depth_, "… " + std::to_string(run_count_ - kShownRemovedSiblings) + " more like these");
    }
    run_count_ = 0;
  }

  const Side& x_;
  const Side& y_;
  std::vector<Step> steps_;
  std::vector<int> old_to_new_;   // kept or changed lines
  std::vector<int> pair_of_old_;  // changed: old → new
  std::vector<int> pair_of_new_;  // changed: new → old
  std::vector<int> path_;         // new-view lines the output is under now (root first)
  std::string out_;
  int run_parent_ = -1, run_count_ = 0, run_depth_ = 0;
};

}  // namespace

std::vector<ViewLine> parse_view(std::string_view outline) {
  std::vector<ViewLine> out;
  for (std::string_view raw : base::split_lines(outline)) {
    std::size_t k = 0;
    while (k < raw.size() && raw[k] == ' ') ++k;
    if (k == raw.size()) continue;
    ViewLine l;
    l.depth = static_cast<int>(k / 2);
    l.text = std::string(raw.substr(k));
    std::string_view rest = raw.substr(k);
    if (rest.front() == '[') {
      std::size_t close = rest.find("] ");
      if (close != std::string_view::npos) {
        l.uid = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 2);
      }
    }
    l.role = std::string(rest.substr(0, rest.find(' ')));
    out.push_back(std::move(l));
  }
  return out;
}

std::optional<ViewDiff> diff_views(std::string_view before, std::string_view after, std::string_view target) {
  Side x = make_side(before), y = make_side(after);
  std::optional<std::vector<Step>> steps = edit_script(x, y);
  if (!steps) return std::nullopt;
  Renderer r(x, y, std::move(*steps));
  return r.render(target);
}

}  // namespace caveman::browse
