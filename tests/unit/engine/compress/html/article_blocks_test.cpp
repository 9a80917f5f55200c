#include "compress/html/article_blocks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::string join(const std::vector<std::string>& blocks) {
  std::string out;
  for (const std::string& b : blocks) out += (out.empty() ? "" : "\n\n") + b;
  return out;
}

const std::string kIntro =
    "This manual describes the frobnicator, its options and its library interface in detail.";
const std::string kCopyright = "Copyright © 1996-2019 Jane Author";
const std::string kBsdOpener =
    "Redistribution and use in source and binary forms, with or without modification, are "
    "permitted provided that the following conditions are met:";
const std::string kBsdDisclaimer =
    "THIS SOFTWARE IS PROVIDED BY THE AUTHOR \"AS IS\" AND ANY EXPRESS OR IMPLIED WARRANTIES, "
    "INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A "
    "PARTICULAR PURPOSE ARE DISCLAIMED.";
const std::string kPatents = "PATENTS: the frobnicator uses no patented algorithm that I know of.";

std::vector<std::string> bsd_page() {
  return {"# Frobnicator", kIntro, kCopyright, kBsdOpener,
          "- Redistributions of source code must retain the above copyright notice.",
          "- The origin of this software must not be misrepresented.",
          "- Altered source versions must be plainly marked as such.",
          kBsdDisclaimer, kPatents};
}

TEST(LicenceTextTest, BsdConditionsAndDisclaimerBecomeOneMarker) {
  std::string out = elide_licence_text(join(bsd_page()));
  EXPECT_EQ(out, join({"# Frobnicator", kIntro, kCopyright,
                       "… 5 paragraphs elided (caveman): standard licence text (BSD-style "
                       "conditions, warranty disclaimer) …",
                       kPatents}));
}

TEST(LicenceTextTest, GnuNoticeOpensWithTheWorksName) {
  std::vector<std::string> page = {
      "## 1. Copyright",
      "This manual is free software; you can redistribute it and/or modify it under the terms of "
      "the GNU General Public License as published by the Free Software Foundation; either "
      "version 2 of the License, or (at your option) any later version.",
      "This is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without "
      "even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.",
      "A copy of the GNU General Public License version 2 is available as "
      "/usr/share/common-licenses/GPL-2.",
      "## 2. Packaging"};
  std::string out = elide_licence_text(join(page));
  EXPECT_EQ(out, join({"## 1. Copyright",
                       "… 3 paragraphs elided (caveman): standard licence text (GNU licence notice, "
                       "warranty disclaimer) …",
                       "## 2. Packaging"}));
}

TEST(LicenceTextTest, FullLicenceSectionKeepsItsHeadingAndVersion) {
  std::vector<std::string> page = {"## 2 Reporting bugs", kIntro,
                                   "## Appendix A GNU Free Documentation License",
                                   "Version 1.3, 3 November 2008"};
  for (int i = 0; i < 6; ++i) {
    page.push_back("The purpose of this License is to make a manual, textbook, or other functional "
                   "document free in the sense of freedom, clause " + std::to_string(i) + ".");
  }
  page.push_back("### ADDENDUM: How to use this License for your documents");
  page.push_back("To use this License in a document you have written, include a copy of it.");
  page.push_back("## Concept index");
  page.push_back("- frobnicate: 1.2");
  std::string out = elide_licence_text(join(page));
  EXPECT_EQ(out, join({"## 2 Reporting bugs", kIntro, "## Appendix A GNU Free Documentation License",
                       "… 9 paragraphs elided (caveman): the licence's full text, Version 1.3, 3 "
                       "November 2008 …",
                       "## Concept index", "- frobnicate: 1.2"}));
}

TEST(LicenceTextTest, WritingAboutLicencesIsNotLicenceText) {
  // A section on licensing with its own words, and a licence heading without the
  // licence's version line (a discussion, not the text).
  std::vector<std::string> page = {
      "## License and copyright information",
      "The runtime library comes under a modified GNU Library General Public License, so it may "
      "be linked into programs under any licence; the compiler source code, on the other hand, "
      "comes under the GNU General Public License and can only be used in compatible projects, "
      "which is why the two are kept apart in the source tree and documented separately here.",
      "## Apache License",
      "We chose the Apache License because it grants a patent licence; see the FAQ for why this "
      "matters to downstream packagers, and read the licence itself before redistributing.",
      kCopyright};
  std::string text = join(page);
  EXPECT_EQ(elide_licence_text(text), text);
}

TEST(LicenceTextTest, ShortNoticesStay) {
  // A one-paragraph notice is about as long as a marker: nothing to gain.
  std::string text = join({kIntro, "Licensed under the Apache License, Version 2.0 (the \"License\").", kPatents});
  EXPECT_EQ(elide_licence_text(text), text);
}

TEST(LicenceTextTest, IsIdempotent) {
  std::string once = elide_licence_text(join(bsd_page()));
  EXPECT_EQ(elide_licence_text(once), once);
}

const std::string kLong =
    "Tests a user's permissions for the file or directory specified by path. The mode argument "
    "is an optional integer that specifies the accessibility checks to be performed, as a mask "
    "of the constants F_OK, R_OK, W_OK and X_OK.";

TEST(RepeatedParagraphsTest, LaterCopyPointsAtTheFirstOnesHeading) {
  std::vector<std::string> page = {"## fs.access(path[, mode], callback)", kLong, "Short note.",
                                   "## fs.accessSync(path[, mode])", kLong, "Short note."};
  std::string out = elide_repeated_paragraphs(join(page));
  EXPECT_EQ(out, join({"## fs.access(path[, mode], callback)", kLong, "Short note.",
                       "## fs.accessSync(path[, mode])",
                       "… 1 paragraph elided (caveman): same text as the paragraph under "
                       "\"fs.access(path[, mode], callback)\" …",
                       "Short note."}));
}

TEST(RepeatedParagraphsTest, ProseDifferingOnlyInPunctuationSaysSameWords) {
  std::string hyphenated = kLong;
  hyphenated.replace(hyphenated.find("optional integer"), 16, "optional-integer");
  std::string out = elide_repeated_paragraphs(join({"# Intro", kLong, "# Description", hyphenated}));
  EXPECT_EQ(out, join({"# Intro", kLong, "# Description",
                       "… 1 paragraph elided (caveman): same words as the paragraph under "
                       "\"Intro\" …"}));
}

TEST(RepeatedParagraphsTest, CodeMustMatchAsText) {
  std::string code =
      "int main(int argc, char** argv) {\n  struct frob* frob = frob_open(argv[0], FROB_DEFAULTS);\n"
      "  frob->run(argc, argv);\n  frob_report(frob, stderr, FROB_REPORT_VERBOSE);\n"
      "  return frob_status(frob);\n}\n/* the same example appears under each language's heading */";
  std::string arrow = code;
  arrow.replace(arrow.find("frob->run"), 9, "frob.run");
  std::string text = join({"# C", code, "# C++", arrow});
  EXPECT_EQ(elide_repeated_paragraphs(text), text);
  // The same code block twice is a repeat.
  std::string twice = elide_repeated_paragraphs(join({"# C", code, "# Again", code}));
  EXPECT_NE(twice.find("same text as the paragraph under \"C\""), std::string::npos);
}

TEST(RepeatedParagraphsTest, LongHeadingIsCutOnACharacterBoundary) {
  std::string heading(79, 'h');
  heading += "é and more";  // 'é' is bytes 79–80: the cut at 80 must not split it
  std::string out = elide_repeated_paragraphs(join({"# " + heading, kLong, "# Again", kLong}));
  std::string want = "same text as the paragraph under \"" + std::string(79, 'h') + "…\"";
  EXPECT_NE(out.find(want), std::string::npos) << out;
}

TEST(RepeatedParagraphsTest, HeadingsAndShortParagraphsStay) {
  std::string text = join({"## Options", "Possible return values:", "## Options", "Possible return values:"});
  EXPECT_EQ(elide_repeated_paragraphs(text), text);
}

TEST(RepeatedParagraphsTest, RepeatBeforeAnyHeadingSaysEarlierParagraph) {
  std::string out = elide_repeated_paragraphs(join({kLong, kLong}));
  EXPECT_EQ(out, join({kLong, "… 1 paragraph elided (caveman): same text as an earlier paragraph …"}));
  EXPECT_EQ(elide_repeated_paragraphs(out), out);
}

TEST(HtmlArticleBlocksTest, CompressorDropsALicenceAppendix) {
  std::string body = "<h1>frob manual</h1>\n";
  for (int i = 0; i < 5; ++i) {
    body += "<p>Paragraph " + std::to_string(i) +
            " explains the frob feature in detail, with commas, clauses, and enough words.</p>\n";
  }
  body += "<h2>Appendix A GNU Free Documentation License</h2>\n<p>Version 1.3, 3 November 2008</p>\n";
  for (int i = 0; i < 8; ++i) {
    body += "<p>This License applies to any manual or other work, in any medium, clause " +
            std::to_string(i) + ".</p>\n";
  }
  std::string page = "<!doctype html><html><head><title>frob</title></head><body><div class=\"content\">" +
                     body + "</div></body></html>";
  auto out = make_html_compressor()->compress(page, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("## Appendix A GNU Free Documentation License\n\n… 9 paragraphs elided "
                            "(caveman): the licence's full text, Version 1.3, 3 November 2008 …"),
            std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("Paragraph 4 explains"), std::string::npos);
  EXPECT_EQ(out->bytes.find("clause 3"), std::string::npos);
}

}  // namespace
}  // namespace caveman::compress
