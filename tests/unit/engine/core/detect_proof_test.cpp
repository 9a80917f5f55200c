// Detection by proof (issue 36): each rule below would fail without the rule it names.
#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "compress/markup/markup.h"

namespace caveman {
namespace {

const char kGxxTemplates[] =
    "unit_0.cpp: In function 'void step_0(std::vector<Event>&)':\n"
    "unit_0.cpp:17:33: warning: unused parameter 'items' [-Wunused-parameter]\n"
    "   17 | void step_0(std::vector<Event>& items) {\n"
    "      |             ~~~~~~~~~~~~~~~~~~~~^~~~~\n"
    "unit_0.cpp:21:21: error: no match for 'operator=' (operand types are "
    "'std::map<std::string, std::vector<P> >' and 'int')\n"
    "   21 |   std::map<std::string, std::vector<P>> m; m = 1;\n"
    "      |                                            ~~^~~\n"
    "In file included from /usr/include/c++/12/map:61,\n"
    "                 from unit_0.cpp:2:\n"
    "/usr/include/c++/12/bits/stl_map.h:317:7: note: candidate: 'std::map<_Key, _Tp>& "
    "std::map<_Key, _Tp>::operator=(const std::map<_Key, _Tp>&) [with _Key = <div><p>]'\n"
    "  317 |       operator=(const map&) = default;\n"
    "      |       ^~~~~~~~\n"
    "unit_0.cpp:30:5: error: 'sym' was not declared in this scope; <sym+0x10> <file> <P> </P>\n"
    "   30 |     sym();\n"
    "      |     ^~~\n";

TEST(DetectProofTest, GxxTemplateDiagnosticsAreDiagnosticsNeverHtml) {
  EXPECT_EQ(detect(kGxxTemplates), "diagnostics");
  EXPECT_EQ(compress::markup::classify(kGxxTemplates), compress::markup::Kind::kNone);
}

TEST(DetectProofTest, GitLogWithAngleAddressesIsNotHtml) {
  std::string log;
  for (int i = 0; i < 6; ++i) {
    log += "commit 3f2a" + std::to_string(i) +
           "c0ffee\nAuthor: main <main@ci.example>\n"
           "Date:   Mon Dec 7 02:48:47 2026 +0000\n\n    <div> fix <p> in <main> layout\n\n";
  }
  EXPECT_NE(detect(log), "html");
  EXPECT_EQ(compress::markup::classify(log), compress::markup::Kind::kNone);
}

TEST(DetectProofTest, CurlVerboseTranscriptIsNotHtml) {
  std::string t =
      "*   Trying 127.0.0.1:33065...\n* Connected to 127.0.0.1 port 33065\n"
      "> GET /api/orders/7 HTTP/1.1\n> Host: 127.0.0.1:33065\n> Accept: */*\n>\n"
      "< HTTP/1.1 500 Internal Server Error\n< Content-Type: text/html; charset=utf-8\n"
      "< Content-Length: 148\n<\n"
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>Error</title>\n</head>\n<body>\n<pre>TypeError: boom</pre>\n</body>\n</html>\n"
      "* Connection #0 to host 127.0.0.1 left intact\n";
  EXPECT_NE(detect(t), "html");
}

TEST(DetectProofTest, EmailAddressesAreNotHtml) {
  std::string mail =
      "From: Ken Ito <ken.ito@build.example>\nTo: <a@b>, <ops@x.example>\n"
      "Subject: <div> <p> <span> <b> <i> <a> tags\n\n<a@b> wrote:\n> <p>hi</p>\n";
  EXPECT_NE(detect(mail), "html");
}

TEST(DetectProofTest, XmlAndSvgAreXml) {
  EXPECT_EQ(detect("<?xml version=\"1.0\"?>\n<policyconfig>\n  <action id=\"a\">\n"
                   "    <description>Run</description>\n  </action>\n</policyconfig>\n"),
            "xml");
  EXPECT_EQ(detect("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\">\n"
                   "  <path d=\"M 8 1 L 2 2 z\"/>\n  <g><rect x=\"1\"/></g>\n</svg>\n"),
            "xml");
  // No prolog: elements that are not HTML's, one per line.
  EXPECT_EQ(detect("<fontconfig>\n  <match target=\"font\">\n    <edit name=\"hinting\">\n"
                   "      <bool>true</bool>\n    </edit>\n  </match>\n</fontconfig>\n"),
            "xml");
}

TEST(DetectProofTest, XmlViewIsLossless) {
  std::string xml = "<?xml version=\"1.0\"?>\n<mime-info>\n";
  for (int i = 0; i < 60; ++i) {
    xml += "  <mime-type type=\"application/x-t" + std::to_string(i) +
           "\"><comment xml:lang=\"en\">Type number " + std::to_string(i) +
           "</comment></mime-type>\n";
  }
  xml += "</mime-info>\n";
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  CompressResult r = engine.compress(xml, o);
  EXPECT_EQ(r.content_type, "xml");
  if (!r.passed_through()) {
    EXPECT_EQ(r.lossless_to_model, std::optional<bool>(true));
    Result<std::string> back = expand_view(r.output);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, xml);
  }
}

TEST(DetectProofTest, RealHtmlPagesStillAreHtml) {
  EXPECT_EQ(
      detect("<!DOCTYPE html>\n<html><head><title>T</title></head><body><p>x</p></body></html>"),
      "html");
  EXPECT_EQ(
      detect("<div class=\"a\">\n  <p>one</p>\n  <p>two</p>\n  <ul><li>x</li></ul>\n</div>\n"),
      "html");
}

// An end tag with more than its name in it is no tag; the scan must stop at the first stray
// character (it once read past the end of the input: a fuzz_compress finding).
TEST(DetectProofTest, AnEndTagWithAttributesIsNoTagAndTheScanStaysInBounds) {
  std::string doc = "<div>\n  <p>one</p>\n</div x>";
  compress::markup::MarkupStats st = compress::markup::scan(doc);
  EXPECT_EQ(st.tags, 3U);
}

TEST(DetectProofTest, HtmlCompressorDeclinesWhatIsNotHtml) {
  auto html = compress::make_html_compressor();
  EXPECT_FALSE(html->compress(kGxxTemplates, "").has_value());
}

TEST(DetectProofTest, TracesAndSanitizerReportsAreDiagnostics) {
  EXPECT_EQ(detect("processing batch 0\nTraceback (most recent call last):\n"
                   "  File \"/tmp/job.py\", line 24, in <module>\n    quota(1)\n"
                   "  File \"/tmp/job.py\", line 5, in quota\n    return tenant(y)\n"
                   "ValueError: quota exceeded\n"),
            "diagnostics");
  EXPECT_EQ(
      detect(
          "ReferenceError: undefinedThing is not defined\n"
          "    at vector (file:///tmp/job.mjs:17:3)\n    at payload (file:///tmp/job.mjs:14:10)\n"
          "    at file:///tmp/job.mjs:19:1\n\nNode.js v20.19.2\n"),
      "diagnostics");
  EXPECT_EQ(
      detect("=================================================================\n"
             "==22918==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60c0000000b8\n"
             "WRITE of size 4 at 0x60c0000000b8 thread T0\n"
             "    #0 0x5641736cdf9f in vector /tmp/a0.c:4:90\n"
             "    #1 0x5641736ce0bc in main /tmp/a0.c:7:25\n\n"
             "SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/a0.c:4:90 in vector\n"
             "==22918==ABORTING\n"),
      "diagnostics");
  EXPECT_EQ(
      detect("==23132== Memcheck, a memory error detector\n==23132== Command: ./v0\n==23132== \n"
             "==23132== Invalid write of size 4\n==23132==    at 0x10917F: ticket (v0.c:4)\n"
             "==23132==    by 0x1091C6: main (v0.c:7)\n"
             "==23132== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)\n"),
      "diagnostics");
}

TEST(DetectProofTest, ALogWithAStackIsStillALog) {
  std::string log;
  for (int i = 0; i < 30; ++i) {
    log += "2026-12-07T02:48:47." + std::to_string(100 + i) + "Z INFO  [orders] order " +
           std::to_string(700 + i) + " served\n";
  }
  log +=
      "2026-12-07T02:48:48.173Z ERROR [orders] create failed: TypeError: boom\n"
      "        at /tmp/svc/server.js:31:46\n        at next (/tmp/router/route.js:163:13)\n";
  EXPECT_EQ(detect(log), "log");
}

TEST(DetectProofTest, AlignedCommandTablesAreTabular) {
  EXPECT_EQ(detect("Filesystem      Size  Used Avail Use% Mounted on\n"
                   "devtmpfs         12G     0   12G   0% /dev\n"
                   "tmpfs            24G     0   24G   0% /dev/shm\n"
                   "/dev/vda        252G   20G   77G  21% /\n"
                   "tmpfs           1.0M     0  1.0M   0% /run/lock\n"),
            "tabular");
  EXPECT_EQ(detect("total 5092\n"
                   "drwxr-xr-x 35 root root   4096 May  9  2026 .\n"
                   "drwxr-xr-x 62 root root   4096 Dec  7 02:36 ..\n"
                   "-rw-r--r--  1 root root    645 Apr 28  2025 EXTERNALLY-MANAGED\n"
                   "-rw-r--r--  1 root root  10472 Apr 28  2025 LICENSE.txt\n"
                   "lrwxrwxrwx  1 root root     14 Apr 28  2025 site.py -> ../site.py\n"),
            "tabular");
  EXPECT_EQ(
      detect("Desired=Unknown/Install/Remove/Purge/Hold\n"
             "| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/trig-aWait/Trig-pend\n"
             "|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)\n"
             "||/ Name           Version      Architecture Description\n"
             "+++-==============-============-============-=================\n"
             "ii  python3        3.11.2-1+b1  amd64        interactive language\n"
             "un  python3-all    <none>       <none>       (no description available)\n"
             "ii  python3-apt    2.6.0        amd64        Python 3 interface to libapt-pkg\n"
             "ii  python3-dev    3.11.2-1+b1  amd64        header files and a static library\n"),
      "tabular");
  EXPECT_EQ(detect("                 w _ITM_deregisterTMCloneTable\n"
                   "                 U _Unwind_Resume@GCC_3.0\n"
                   "00000000000200f0 u guard variable for instance\n"
                   "00000000000184c0 T boost::filesystem::path::convert(wchar_t const*)\n"
                   "00000000000a80a0 T transaction clone for std::bad_exception::what() const\n"),
            "tabular");
  // An aligned log has no header of words: it stays a log.
  std::string log;
  for (int i = 0; i < 10; ++i)
    log += "2026-12-07T02:48:4" + std::to_string(i) + ".100Z INFO  [orders] order served\n";
  EXPECT_NE(detect(log), "tabular");
}

TEST(DetectProofTest, Rfc822StanzasAreRecords) {
  std::string show =
      "Package: gettext-base\nVersion: 0.21-12\nInstalled-Size: 645\n"
      "Description: GNU Internationalization utilities\n"
      "Tag: admin::configuring, devel::i18n,\n scope::utility\n\n"
      "Package: libxrender1\nVersion: 1:0.9.10-1.1\nInstalled-Size: 78\n"
      "Description: X Rendering Extension client library\n";
  EXPECT_EQ(detect(show), "records");
  // YAML never repeats a key in one mapping: a mapping with lowercase keys is config.
  EXPECT_NE(detect("name: ci\non:\n  push:\n    branches: [main]\njobs:\n  build:\n"
                   "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                   "      - run: make\n      - run: make test\n      - run: make bench\n"),
            "records");
}

TEST(DetectProofTest, OneSectionIniIsConfig) {
  EXPECT_EQ(
      detect("# mypy settings\n\n[mypy]\nfiles = Lib/test\nexplicit_package_bases = True\n"
             "python_version = 3.12\n\n[mypy-_abc.*,test.*]\nignore_missing_imports = True\n"),
      "config");
}

TEST(DetectProofTest, StraceAndCommentedOutSettingsAndDesktopEntries) {
  std::string trace =
      "execve(\"/usr/bin/ls\", [\"ls\", \"-la\"], 0x7ffe72020370 /* 49 vars */) = 0\n"
      "brk(NULL)                               = 0x558a45605000\n"
      "access(\"/etc/ld.so.preload\", R_OK)      = -1 ENOENT (No such file or directory)\n"
      "openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n"
      "fstat(3, {st_mode=S_IFREG|0644, st_size=21312, ...}) = 0\n"
      "mmap(NULL, 21312, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f10e3704000\n"
      "close(3)                                = 0\n"
      "write(1, \"total 8\\n\", 8)                = 8\n"
      "exit_group(0)                           = ?\n"
      "+++ exited with 0 +++\n";
  EXPECT_EQ(detect(trace), "log");
  std::string commented;
  for (int i = 0; i < 10; ++i)
    commented +=
        "# Setting " + std::to_string(i) + " of the defaults\n#Key" + std::to_string(i) + "=yes\n";
  EXPECT_EQ(detect(commented), "config");
  std::string desktop = "[Desktop Entry]\nVersion=1.0\nName=Chromium Web Browser\n";
  for (std::string_view l : {"ast", "ca", "de", "es", "fr", "it", "ja", "nl"})
    desktop += "Name[" + std::string(l) + "]=Chromium\n";
  EXPECT_EQ(detect(desktop), "config");
}

TEST(DetectProofTest, UnprovenTextGetsLosslessViewsOnly) {
  // git status with many untracked files: no rule proves a type, so nothing may be elided.
  std::string dis =
      "On branch main\nUntracked files:\n"
      "  (use \"git add <file>...\" to include in what will be committed)\n";
  for (int i = 0; i < 400; ++i) dis += "\tsrc/module_" + std::to_string(i % 9) + "/part.txt\n";
  dis += "\nnothing added to commit but untracked files present\n";
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  CompressResult r = engine.compress(dis, o);
  if (!r.passed_through()) {
    EXPECT_EQ(r.lossless_to_model, std::optional<bool>(true)) << r.content_type;
    Result<std::string> back = expand_view(r.output);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, dis);
  }
}

}  // namespace
}  // namespace caveman
