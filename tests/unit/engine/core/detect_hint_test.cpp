// Detection with the name of the file an output shows (docs/spec/detect.md#hints): the name
// proposes, the content must carry the family's marks, a type the content proves wins.
#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "core/detect_rules.h"

namespace caveman {
namespace {

std::string repeat(const std::string& line, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += line;
  return out;
}

TEST(DetectHintTest, ExtensionsNameFamilies) {
  EXPECT_EQ(core::type_of_path("/etc/security/limits.conf"), "config");
  EXPECT_EQ(core::type_of_path("src/App.TSX"), "code");
  EXPECT_EQ(core::type_of_path("icons/a.svg"), "xml");
  EXPECT_EQ(core::type_of_path("docs/index.html"), "html");
  EXPECT_EQ(core::type_of_path("package.json"), "json");
  EXPECT_EQ(core::type_of_path("README"), "");
  EXPECT_EQ(core::type_of_path(""), "");
}

// A settings file that is mostly comments: no content rule proves it, its name and its lines do.
TEST(DetectHintTest, CommentedSettingsFileIsConfigByName) {
  std::string conf = repeat("# a comment that explains the next setting\n", 20) +
                     "include \"rm-strict.conf\"\nname: \"RM-COBOL\"\n";
  EXPECT_EQ(detect(conf), "text");
  EXPECT_EQ(detect(conf, "/etc/gnucobol/rm.conf"), "config");
  // The same lines under a name of no family stay text.
  EXPECT_EQ(detect(conf, "/tmp/notes"), "text");
}

// Prose does not become config because its file is called .conf.
TEST(DetectHintTest, NameWithoutTheFamilysMarksIsIgnored) {
  std::string prose = repeat("This paragraph, written in plain words, explains the setup.\n", 12) +
                      repeat("Nothing here is a key, a section or a directive, really!\n", 6);
  EXPECT_EQ(detect(prose, "/etc/motd.conf"), detect(prose));
  std::string text = repeat("plain words and more words\n", 10);
  EXPECT_EQ(detect(text, "/srv/page.html"), detect(text));
}

// A window cut from a source file: the name says code.
TEST(DetectHintTest, SliceOfSourceFileIsCode) {
  std::string slice = repeat("    'AccountBalance',\n    'AccountCredit',\n", 20);
  EXPECT_NE(detect(slice), "code");
  EXPECT_EQ(detect(slice, "/usr/lib/python3/x/_builtins.py"), "code");
}

// What the content proves wins over the name: a diff saved as .conf is a diff.
TEST(DetectHintTest, ContentProofWinsOverName) {
  std::string diff =
      "diff --git a/x.conf b/x.conf\n--- a/x.conf\n+++ b/x.conf\n@@ -1,3 +1,3 @@\n a = 1\n"
      "-b = 2\n+b = 3\n c = 4\n";
  EXPECT_EQ(detect(diff, "/tmp/change.conf"), "diff");
  EXPECT_EQ(detect("{\"a\": [1, 2, 3], \"b\": {\"c\": true}}", "/tmp/x.py"), "json");
}

// A disassembly's `2004:` addresses are no YAML keys.
TEST(DetectHintTest, DisassemblyAddressesAreNoSettings) {
  std::string od =
      "\n/usr/bin/x:     file format elf64-x86-64\n\n\nDisassembly of section .init:\n\n"
      "0000000000002000 <.init>:\n";
  for (int i = 0; i < 40; ++i) {
    char line[96];
    std::snprintf(line, sizeof line, "    %x:\t48 83 ec 08          \tsub    $0x8,%%rsp\n",
                  0x2000 + i * 4);
    od += line;
  }
  EXPECT_NE(detect(od), "config");
}

}  // namespace
}  // namespace caveman
