// view_diff.h — what an action changed in the page's view (docs/browse.md, "What an action
// answers").
//
// Two outlines (one node a line, two spaces per level, `[uid] role "name" = "value" {states}`)
// are compared line by line (longest common subsequence after trimming the common head and
// tail), ignoring the `focused` state (it moves with every click) and telling alike uid-less
// containers (`listitem`, `row`) apart by their first child. A removed and an added line are one *changed* node when they carry the same uid, or
// when neither has a uid and they share role, depth and parent within one run of edits. The
// rendering prints one line per change, prefixed `+` added, `-` removed, `~` changed (its new
// form), each under its unchanged ancestors (prefix two spaces; repeated where the lines
// above do not show them) so the place is clear; the
// acted-on uid, when unchanged, is shown with `>` under its ancestors too. A removed subtree is
// its root line with the count of nodes inside; a run of removed siblings shows the first
// and a count. The page line (the root) is never context: it is `~` when the title changed. Pure functions, deterministic output; thread-safe.
#ifndef CAVEMAN_BROWSE_VIEW_DIFF_H_
#define CAVEMAN_BROWSE_VIEW_DIFF_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::browse {

struct ViewLine {
  int depth = 0;
  std::string text;  // the line without its indentation
  std::string uid;   // "" when the node has none
  std::string role;
};

// One ViewLine per non-empty line of `outline`.
std::vector<ViewLine> parse_view(std::string_view outline);

struct ViewDiff {
  int added = 0;
  int removed = 0;
  int changed = 0;
  std::string text;  // rendered as described above; "" when nothing changed

  bool empty() const { return added == 0 && removed == 0 && changed == 0; }
};

// Above this many comparisons (lines of the differing middle, old × new) no diff is computed.
inline constexpr std::size_t kMaxDiffCells = std::size_t{4} << 20;

// The change from `before` to `after`; `target` (a uid, may be "") is shown with its
// ancestors. nullopt when the views differ too much to compare within kMaxDiffCells.
std::optional<ViewDiff> diff_views(std::string_view before, std::string_view after, std::string_view target = {});

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_VIEW_DIFF_H_
