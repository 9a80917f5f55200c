#include "compress/a11y/a11y_outline.h"

#include <algorithm>
#include <initializer_list>

namespace caveman::compress::a11y {
namespace {

constexpr std::size_t kPreviewRecords = 6;  // a section's first block shown when this small
constexpr std::size_t kFirstItems = 3;      // list items and table rows shown
constexpr std::size_t kLongList = kFirstItems + 2;
constexpr std::size_t kSmallItem = 12;  // records of an item shown whole

bool in_list(std::string_view s, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool is_landmark(std::string_view role) {
  return in_list(role, {"banner", "navigation", "main", "complementary", "contentinfo", "region", "form",
                        "search", "dialog", "alertdialog"});
}

bool is_table(std::string_view role) { return in_list(role, {"table", "grid", "treegrid"}); }

bool is_field(std::string_view role) {
  return in_list(role, {"textbox", "searchbox", "combobox", "checkbox", "radio", "slider", "spinbutton",
                        "switch", "listbox"});
}

// Fields the outline always shows: text entry anywhere (a docs page's search box), any field
// inside a form. A checkbox beside each code sample ("show ES modules") is content.
bool is_text_entry(std::string_view role) { return in_list(role, {"textbox", "searchbox", "combobox"}); }

std::string base36(std::int64_t n) {
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  auto u = static_cast<std::uint64_t>(n);
  do {
    out.insert(out.begin(), kDigits[u % 36]);
    u /= 36;
  } while (u > 0);
  return out;
}

std::size_t count_words(std::string_view s) {
  std::size_t n = 0;
  bool in_word = false;
  for (char c : s) {
    bool space = c == ' ';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

class Outliner {
 public:
  Outliner(const std::vector<Record>& records, const std::vector<bool>& kept, int level, int expanded)
      : r_(records), base_(kept), level_(level), expanded_(expanded), last_(records.size()),
        skel_(records.size(), false) {
    out_.kept.assign(records.size(), false);
    int base = expanded >= 0 && records[static_cast<std::size_t>(expanded)].level > 0
                   ? records[static_cast<std::size_t>(expanded)].level
                   : 1;
    max_heading_ = level <= 1 ? 99 : base + (kOutlineLevels - 1 - level);
    for (std::size_t i = records.size(); i-- > 0;) {
      last_[i] = i;
      if (!base_[i]) continue;
      skel_[i] = skeleton(static_cast<int>(i));
      for (int c : records[i].children) {
        last_[i] = std::max(last_[i], last_[static_cast<std::size_t>(c)]);
        skel_[i] = skel_[i] || skel_[static_cast<std::size_t>(c)];
      }
    }
  }

  Outline run() && {
    for (std::size_t i = 0; i < r_.size(); ++i) {
      if (base_[i] && (r_[i].parent < 0 || !base_[static_cast<std::size_t>(r_[i].parent)])) visit(static_cast<int>(i));
    }
    return std::move(out_);
  }

 private:
  const Record& at(int i) const { return r_[static_cast<std::size_t>(i)]; }

  bool skeleton(int i) const {
    const Record& r = at(i);
    if (r.level > 0) return r.level <= max_heading_;
    return is_landmark(r.role) || is_table(r.role) || is_text_entry(r.role) || (is_field(r.role) && in_form(i)) ||
           i == expanded_;
  }

  bool in_form(int i) const {
    for (int a = at(i).parent; a >= 0; a = at(a).parent) {
      if (at(a).role == "form" || at(a).role == "search") return true;
    }
    return false;
  }

  void keep_whole(int i) {
    for (std::size_t k = static_cast<std::size_t>(i); k <= last_[static_cast<std::size_t>(i)]; ++k) {
      if (base_[k]) out_.kept[k] = true;
    }
  }

  // A kept container with skeleton inside: its content children form runs between the
  // skeleton ones, each run anchored at the heading before it (or at the container).
  void visit(int i) {
    out_.kept[static_cast<std::size_t>(i)] = true;
    if (at(i).level > 0) return keep_whole(i);
    if (is_table(at(i).role)) return table(i);
    int anchor = i;
    std::vector<int> run;
    for (int c : at(i).children) {
      auto ci = static_cast<std::size_t>(c);
      if (!base_[ci]) continue;
      if (!skel_[ci]) {
        run.push_back(c);
        continue;
      }
      flush(run, anchor);
      if (at(c).level > 0 || is_field(at(c).role)) {  // a skeleton field: here in a form or text entry
        keep_whole(c);
        if (at(c).level > 0) anchor = c;
      } else {
        visit(c);
      }
    }
    flush(run, anchor);
  }

  std::size_t size_of(int i) const { return last_[static_cast<std::size_t>(i)] - static_cast<std::size_t>(i) + 1; }

  bool long_list(int i) const { return at(i).role == "list" && at(i).children.size() >= kLongList; }

  // Level 0 shows a run's first block when small and the first items of its long lists;
  // everything else in the run goes behind markers.
  void flush(std::vector<int>& run, int anchor) {
    if (run.empty()) return;
    if (anchor == expanded_) {
      for (int c : run) keep_whole(c);
      run.clear();
      return;
    }
    std::vector<int> hidden;
    for (std::size_t k = 0; k < run.size(); ++k) {
      int c = run[k];
      bool preview = level_ == 0 && k == 0 && size_of(c) <= kPreviewRecords;
      if (!preview && !(level_ == 0 && long_list(c))) {
        hidden.push_back(c);
        continue;
      }
      if (!hidden.empty()) hide(hidden, anchor, "");
      hidden.clear();
      if (preview) {
        keep_whole(c);
      } else {
        list(c);
      }
    }
    if (!hidden.empty()) hide(hidden, anchor, "");
    run.clear();
  }

  void list(int i) {
    out_.kept[static_cast<std::size_t>(i)] = true;
    std::vector<int> items;
    for (int c : at(i).children) {
      if (base_[static_cast<std::size_t>(c)]) items.push_back(c);
    }
    for (std::size_t k = 0; k < items.size() && k < kFirstItems; ++k) {
      if (size_of(items[k]) <= kSmallItem) {
        keep_whole(items[k]);
        continue;
      }
      out_.kept[static_cast<std::size_t>(items[k])] = true;
      std::vector<int> inner;
      for (int c : at(items[k]).children) {
        if (base_[static_cast<std::size_t>(c)]) inner.push_back(c);
      }
      if (!inner.empty()) hide(inner, items[k], "");
    }
    if (items.size() > kFirstItems) {
      hide(std::vector<int>(items.begin() + kFirstItems, items.end()), i,
           std::to_string(items.size() - kFirstItems) + " more items (" + std::to_string(items.size()) + " in all)");
    }
  }

  // A table keeps its first rows (with their row groups), its caption-like text and the count.
  void table(int i) {
    std::vector<int> rows;
    for (std::size_t k = static_cast<std::size_t>(i) + 1; k <= last_[static_cast<std::size_t>(i)]; ++k) {
      if (base_[k] && r_[k].role == "row") rows.push_back(static_cast<int>(k));
    }
    bool all = i == expanded_;
    for (std::size_t k = 0; k < rows.size() && (all || k < kFirstItems); ++k) {
      keep_whole(rows[k]);
      for (int a = at(rows[k]).parent; a >= 0 && a != i; a = at(a).parent) out_.kept[static_cast<std::size_t>(a)] = true;
    }
    for (int c : at(i).children) {
      if (base_[static_cast<std::size_t>(c)] && at(c).is_text) out_.kept[static_cast<std::size_t>(c)] = true;
    }
    if (!all && rows.size() > kFirstItems) {
      hide({rows[kFirstItems]}, i,
           std::to_string(rows.size() - kFirstItems) + " more rows (" + std::to_string(rows.size()) + " in all)");
    }
  }

  // One marker for the run: what it holds, and the uid that shows it.
  void hide(const std::vector<int>& run, int anchor, std::string what) {
    if (what.empty()) what = summary(run);
    std::string uid = anchor_uid(at(anchor));
    std::string line = "… hidden: " + what;
    line += uid.empty() || anchor == expanded_ ? "; query to see it" : "; expand " + uid;
    out_.markers[run.front()] = std::move(line);
  }

  std::string summary(const std::vector<int>& run) const {
    static constexpr std::string_view kKinds[] = {"heading", "paragraph", "list", "table", "link", "button",
                                                  "field", "image"};
    std::size_t counts[std::size(kKinds)] = {};
    std::size_t words = 0;
    for (int root : run) {
      for (std::size_t k = static_cast<std::size_t>(root); k <= last_[static_cast<std::size_t>(root)]; ++k) {
        if (!base_[k]) continue;
        const Record& r = r_[k];
        // Every branch a string_view: with std::string in one branch the ternary would make a
        // temporary string and `kind` would point into it after the statement.
        std::string_view kind = r.level > 0                    ? std::string_view("heading")
                                : is_field(r.role)             ? std::string_view("field")
                                : r.role == "img"              ? std::string_view("image")
                                                               : std::string_view(r.role);
        for (std::size_t n = 0; n < std::size(kKinds); ++n) {
          if (kind == kKinds[n]) ++counts[n];
        }
        if (r.is_text) words += count_words(r.name);
      }
    }
    std::string out;
    for (std::size_t n = 0; n < std::size(kKinds); ++n) {
      if (counts[n] == 0) continue;
      out += std::to_string(counts[n]) + " " + std::string(kKinds[n]) + (counts[n] > 1 ? "s, " : ", ");
    }
    if (words > 0 || out.empty()) return out + std::to_string(words) + " words";
    return out.substr(0, out.size() - 2);
  }

  const std::vector<Record>& r_;
  const std::vector<bool>& base_;
  int level_;
  int expanded_;
  int max_heading_ = 99;
  std::vector<std::size_t> last_;
  std::vector<bool> skel_;
  Outline out_;
};

}  // namespace

std::string anchor_uid(const Record& r) { return r.backend_id > 0 ? "u" + base36(r.backend_id) : ""; }

Outline outline(const std::vector<Record>& records, const std::vector<bool>& kept, int level, int expanded) {
  return Outliner(records, kept, level, expanded).run();
}

int find_expansion(const std::vector<Record>& records, std::string_view uid) {
  if (uid.size() < 2 || uid[0] != 'u') return -1;
  std::string_view digits = uid.substr(1, uid.find('_') == std::string_view::npos ? uid.npos : uid.find('_') - 1);
  if (digits.empty() || digits.size() > 12) return -1;
  std::int64_t v = 0;
  for (char c : digits) {
    if (c >= '0' && c <= '9') {
      v = v * 36 + (c - '0');
    } else if (c >= 'a' && c <= 'z') {
      v = v * 36 + (c - 'a' + 10);
    } else {
      return -1;
    }
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].backend_id == v && !records[i].is_text) return static_cast<int>(i);
  }
  return -1;
}

void keep_section(const std::vector<Record>& records, int at, std::vector<bool>& kept) {
  for (int a = at; a >= 0; a = records[static_cast<std::size_t>(a)].parent) kept[static_cast<std::size_t>(a)] = true;
  mark_subtree(records, at, kept);
  const Record& r = records[static_cast<std::size_t>(at)];
  if (r.level == 0 || r.parent < 0) return;
  // A heading's section: its following siblings up to the next heading of its level or above.
  const std::vector<int>& sibs = records[static_cast<std::size_t>(r.parent)].children;
  auto it = std::find(sibs.begin(), sibs.end(), at);
  for (++it; it != sibs.end(); ++it) {
    int lv = records[static_cast<std::size_t>(*it)].level;
    if (lv > 0 && lv <= r.level) break;
    mark_subtree(records, *it, kept);
  }
}

}  // namespace caveman::compress::a11y
