#include "compress/html/article_blocks.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <vector>

#include "caveman/base/text.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::string_view kSeparator = "\n\n";
constexpr std::size_t kMinRunBytes = 300;  // a shorter notice costs about what its marker does
constexpr std::size_t kProbeBytes = 320;   // sentences are looked for near a paragraph's start

struct Sentence {
  std::string_view text;  // lowercase, single-spaced, straight quotes
  std::string_view label;
  bool anywhere_in_probe;  // else the paragraph must start with it
};

// The fixed sentences of common licences. GNU notices open with the work's name ("This
// manual is free software; …"), so theirs may sit anywhere in the paragraph's start.
constexpr std::array<Sentence, 16> kSentences = {{
    {"redistribution and use in source and binary forms", "BSD-style conditions", false},
    {"permission is hereby granted, free of charge, to any person obtaining a copy", "MIT licence", false},
    {"permission to use, copy, modify, and/or distribute this software for any purpose", "ISC licence", false},
    {"is free software; you can redistribute it and/or modify it under the terms of the gnu",
     "GNU licence notice", true},
    {"permission is granted to copy, distribute and/or modify this document under the terms of the gnu",
     "GNU FDL notice", false},
    {"licensed under the apache license, version 2.0", "Apache licence notice", true},
    {"you may obtain a copy of the license at", "Apache licence notice", false},
    {"unless required by applicable law or agreed to in writing", "Apache licence notice", false},
    {"the above copyright notice and this permission notice shall be included", "MIT licence", false},
    {"this software is provided by", "warranty disclaimer", false},
    {"the software is provided \"as is\"", "warranty disclaimer", false},
    {"is distributed in the hope that it will be useful, but without any warranty", "warranty disclaimer", true},
    {"in no event shall", "warranty disclaimer", false},
    {"you should have received a copy of the gnu", "GNU licence notice", false},
    {"a copy of the gnu", "GNU licence notice", false},
    {"writing to the free software foundation", "GNU licence notice", true},
}};

// Licences whose full text is often appended to manuals, as heading words.
constexpr std::array<std::string_view, 6> kLicenceTitles = {
    "gnu free documentation license", "gnu general public license", "gnu lesser general public license",
    "gnu library general public license", "apache license", "mozilla public license"};

// Lowercase ASCII, runs of white space as one space, curly double quotes as straight ones;
// at most `limit` bytes of output.
std::string normalise(std::string_view s, std::size_t limit) {
  std::string out;
  out.reserve(std::min(s.size(), limit));
  bool space = false;
  for (std::size_t i = 0; i < s.size() && out.size() < limit; ++i) {
    char c = s[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    // U+201C / U+201D (E2 80 9C / E2 80 9D) → '"'
    if (static_cast<unsigned char>(c) == 0xE2 && i + 2 < s.size() && s[i + 1] == '\x80' &&
        (s[i + 2] == '\x9C' || s[i + 2] == '\x9D')) {
      out += '"';
      i += 2;
      continue;
    }
    out += base::ascii_lower_char(c);
  }
  return out;
}

std::string_view without_list_mark(std::string_view s) {
  if (s.starts_with("- ")) return s.substr(2);
  return s;
}

bool is_list_item(std::string_view block) {
  if (block.starts_with("- ")) return true;
  std::size_t i = 0;
  while (i < block.size() && block[i] >= '0' && block[i] <= '9') ++i;
  return i > 0 && i + 1 < block.size() && (block[i] == '.' || block[i] == ')') && block[i + 1] == ' ';
}

// The label of the licence sentence `block` opens with, or empty.
std::string_view licence_sentence(std::string_view block) {
  std::string probe = normalise(without_list_mark(block), kProbeBytes);
  for (const Sentence& s : kSentences) {
    if (s.anywhere_in_probe ? probe.find(s.text) != std::string::npos : probe.starts_with(s.text)) {
      return s.label;
    }
  }
  return {};
}

// Heading level of a `#` line (1–6), 0 for any other block.
int heading_level(std::string_view block) {
  int level = 0;
  while (static_cast<std::size_t>(level) < block.size() && block[level] == '#') ++level;
  bool heading = level >= 1 && level <= 6 && static_cast<std::size_t>(level) < block.size() &&
                 block[level] == ' ' && block.find('\n') == std::string_view::npos;
  return heading ? level : 0;
}

bool names_licence(std::string_view heading) {
  std::string h = normalise(heading, heading.size());
  for (std::string_view t : kLicenceTitles) {
    if (h.find(t) != std::string::npos) return true;
  }
  return false;
}

bool is_version_line(std::string_view block) {
  return block.starts_with("Version ") && block.size() > 8 && block[8] >= '0' && block[8] <= '9' &&
         block.find('\n') == std::string_view::npos;
}

std::vector<std::string_view> split_blocks(std::string_view text) {
  std::vector<std::string_view> blocks;
  std::size_t start = 0;
  for (std::size_t at = text.find(kSeparator); at != std::string_view::npos;
       at = text.find(kSeparator, start)) {
    blocks.push_back(text.substr(start, at - start));
    start = at + kSeparator.size();
  }
  blocks.push_back(text.substr(start));
  return blocks;
}

std::string marker(std::size_t paragraphs, std::string_view note) {
  return "… " + std::to_string(paragraphs) + (paragraphs == 1 ? " paragraph" : " paragraphs") +
         " elided (caveman): " + std::string(note) + " …";
}

struct Replacement {
  std::size_t first = 0, end = 0;  // block range [first, end)
  std::string marker;
};

std::size_t bytes_of(const std::vector<std::string_view>& blocks, std::size_t first, std::size_t end) {
  std::size_t n = 0;
  for (std::size_t i = first; i < end; ++i) n += blocks[i].size() + kSeparator.size();
  return n;
}

// The block after a full-text licence section, or `heading` itself when it is not one.
std::size_t full_text_section_end(const std::vector<std::string_view>& blocks, std::size_t heading) {
  int level = heading_level(blocks[heading]);
  if (level == 0 || heading + 1 >= blocks.size() || !names_licence(blocks[heading]) ||
      !is_version_line(blocks[heading + 1])) {
    return heading;
  }
  std::size_t end = heading + 1;
  while (end < blocks.size()) {
    int l = heading_level(blocks[end]);
    if (l != 0 && l <= level) break;
    ++end;
  }
  return end;
}

// The block after a run of licence sentences starting at `first` (== first when none);
// `labels` receives the run's labels in first-seen order.
std::size_t sentence_run_end(const std::vector<std::string_view>& blocks, std::size_t first,
                             std::vector<std::string_view>& labels) {
  std::size_t end = first;
  bool conditions = false;  // list items after a BSD opener are its numbered conditions
  while (end < blocks.size()) {
    std::string_view label = licence_sentence(blocks[end]);
    if (label.empty() && !(conditions && is_list_item(blocks[end]))) break;
    if (!label.empty()) {
      conditions = label == kSentences[0].label;
      bool seen = false;
      for (std::string_view l : labels) seen = seen || l == label;
      if (!seen) labels.push_back(label);
    }
    ++end;
  }
  return end;
}

// `blocks` joined again with each replacement's marker in place of its range (ranges in
// order, not overlapping).
std::string with_markers(const std::vector<std::string_view>& blocks, const std::vector<Replacement>& replacements) {
  std::vector<std::string_view> pieces;
  std::size_t next = 0;
  for (const Replacement& r : replacements) {
    pieces.insert(pieces.end(), blocks.begin() + static_cast<std::ptrdiff_t>(next),
                  blocks.begin() + static_cast<std::ptrdiff_t>(r.first));
    pieces.push_back(r.marker);
    next = r.end;
  }
  pieces.insert(pieces.end(), blocks.begin() + static_cast<std::ptrdiff_t>(next), blocks.end());
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) out += kSeparator;
    out += pieces[i];
  }
  return out;
}

// Letters and digits of `s`, lowercased, one space between words.
std::string words_of(std::string_view s) {
  std::string out;
  bool gap = false;
  for (char c : s) {
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
                static_cast<unsigned char>(c) >= 0x80;
    if (!word) {
      gap = !out.empty();
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += base::ascii_lower_char(c);
  }
  return out;
}

// `s` with runs of white space as one space, trimmed.
std::string spaced(std::string_view s) {
  std::string out;
  bool gap = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      gap = !out.empty();
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string elide_licence_text(std::string_view text) {
  std::vector<std::string_view> blocks = split_blocks(text);
  std::vector<Replacement> replacements;
  for (std::size_t i = 0; i < blocks.size();) {
    if (std::size_t end = full_text_section_end(blocks, i); end > i) {
      // The heading stays; its body (from the version line on) goes.
      if (bytes_of(blocks, i + 1, end) >= kMinRunBytes) {
        replacements.push_back({i + 1, end, marker(end - i - 1, "the licence's full text, " +
                                                                    std::string(blocks[i + 1]))});
      }
      i = end;
      continue;
    }
    std::vector<std::string_view> labels;
    if (std::size_t end = sentence_run_end(blocks, i, labels); end > i) {
      if (bytes_of(blocks, i, end) >= kMinRunBytes) {
        std::string note = "standard licence text (";
        for (std::size_t k = 0; k < labels.size(); ++k) note += (k > 0 ? ", " : "") + std::string(labels[k]);
        replacements.push_back({i, end, marker(end - i, note + ")")});
      }
      i = end;
      continue;
    }
    ++i;
  }
  if (replacements.empty()) return std::string(text);
  return with_markers(blocks, replacements);
}

std::string elide_repeated_paragraphs(std::string_view text) {
  constexpr std::size_t kMinRepeatBytes = 200;
  constexpr std::size_t kMaxHeadingBytes = 80;
  std::vector<std::string_view> blocks = split_blocks(text);
  // First copy of each paragraph, by its white-space-normalised text and by its words;
  // the value is the heading above that copy.
  std::map<std::string, std::string_view> by_text;
  std::map<std::string, std::string_view> by_words;
  std::vector<Replacement> replacements;
  std::string_view heading;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    std::string_view b = blocks[i];
    if (heading_level(b) != 0) {
      heading = b.substr(b.find(' ') + 1);
      continue;
    }
    if (b.size() < kMinRepeatBytes) continue;
    std::string key = spaced(b);
    bool one_line = b.find('\n') == std::string_view::npos;
    std::string words = one_line ? words_of(b) : std::string();
    std::string_view first;
    std::string_view how;
    if (auto it = by_text.find(key); it != by_text.end()) {
      first = it->second;
      how = "same text";
    } else if (auto w = one_line ? by_words.find(words) : by_words.end(); w != by_words.end()) {
      first = w->second;
      how = "same words";
    } else {
      by_text.emplace(std::move(key), heading);
      if (one_line) by_words.emplace(std::move(words), heading);
      continue;
    }
    std::size_t cut = text::utf8_safe_cut(first, kMaxHeadingBytes);
    std::string where = first.empty() ? "an earlier paragraph"
                                      : "the paragraph under \"" + std::string(first.substr(0, cut)) +
                                            (cut < first.size() ? "…" : "") + "\"";
    std::string m = marker(1, std::string(how) + " as " + where);
    if (m.size() < b.size()) replacements.push_back({i, i + 1, std::move(m)});
  }
  if (replacements.empty()) return std::string(text);
  return with_markers(blocks, replacements);
}

}  // namespace caveman::compress
