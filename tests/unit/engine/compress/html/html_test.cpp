#include <gtest/gtest.h>
#include <gumbo.h>

#include <string>
#include <vector>

#include "compress/compressors.h"
#include "compress/html/html_extract.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> run(std::string_view in) {
  static const auto c = make_html_compressor();
  return c->compress(in, "");
}

std::string para(int i) {
  return "<p>Paragraph " + std::to_string(i) +
         " explains the feature in detail, with commas, clauses, and enough words to score.</p>\n";
}

std::string article_page() {
  std::string body;
  for (int i = 1; i <= 4; ++i) body += para(i);
  return "<!doctype html><html><head><title>Widget Guide</title>"
         "<style>.x{color:red}</style><script>var tracking = 1;</script></head><body>\n"
         "<header class=\"site-header\"><a href=\"/\">Home</a></header>\n"
         "<nav><ul><li><a href=\"/a\">Nav one</a></li><li><a href=\"/b\">Nav two</a></li></ul></nav>\n"
         "<div id=\"main-content\" class=\"content\">\n"
         "<h1>Widgets<a class=\"mark\" href=\"#w\">#</a></h1>\n" +
         body.substr(0, body.size() / 2) +
         "<h2>Install</h2>\n<ul><li>Run <code>make</code> first</li><li>See <a href=\"/docs\">the docs</a> too</li></ul>\n"
         "<pre>\n$ make install\n  done\n</pre>\n" +
         body.substr(body.size() / 2) +
         "<div class=\"toc\"><a href=\"#1\">One</a> <a href=\"#2\">Two</a> <a href=\"#3\">Three</a></div>\n"
         "<form><input name=q><button>Search</button></form>\n"
         "<table><tr><td>cell A</td><td>cell B</td></tr></table>\n"
         "</div>\n"
         "<div class=\"sidebar\"><p>Sidebar promo text that is long enough to be a paragraph.</p></div>\n"
         "<footer class=\"footer\">Copyright 2024 tracking footer</footer>\n"
         "<script>document.write('late script');</script>\n"
         "</body></html>";
}

TEST(HtmlCompressorTest, ExtractsTheArticleAsText) {
  auto out = run(article_page());
  ASSERT_TRUE(out.has_value());
  const std::string& o = out->bytes;
  EXPECT_EQ(out->method, "html");
  EXPECT_TRUE(o.starts_with("Widget Guide\n\n# Widgets\n\nParagraph 1 explains")) << o;
  EXPECT_NE(o.find("\n\n## Install\n\n- Run make first\n- See the docs too\n\n$ make install\n  done\n\n"),
            std::string::npos)
      << o;
  EXPECT_NE(o.find("cell A cell B"), std::string::npos);
  EXPECT_NE(o.find("Paragraph 4 explains"), std::string::npos);
  for (const char* gone : {"tracking", "late script", "Nav one", "Home", "Sidebar promo",
                           "Copyright", "Search", "One Two", "color:red", "Widgets#"}) {
    EXPECT_EQ(o.find(gone), std::string::npos) << gone << "\n" << o;
  }
}

TEST(HtmlCompressorTest, IdempotentAndDeterministic) {
  auto once = run(article_page());
  ASSERT_TRUE(once.has_value());
  EXPECT_EQ(run(article_page())->bytes, once->bytes);
  EXPECT_FALSE(run(once->bytes).has_value());  // plain text has no paragraphs to extract
}

TEST(HtmlCompressorTest, UnclosedTagsAndInvalidUtf8) {
  std::string in = "<html><body><div class=post><h2>Unclosed \xff heading<p>";
  for (int i = 0; i < 6; ++i) {
    in += "<p>Unclosed paragraph " + std::to_string(i) + " with <b>bold, <i>italic text and more words";
  }
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("## Unclosed \xEF\xBF\xBD heading"), std::string::npos) << out->bytes;
  EXPECT_NE(out->bytes.find("Unclosed paragraph 5 with bold, italic text and more words"),
            std::string::npos);
}

TEST(HtmlCompressorTest, ParagraphsDirectlyInBody) {
  std::string in = "<html><head><title>Plain</title></head><body>";
  for (int i = 0; i < 5; ++i) in += para(i);
  in += "</body></html>";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_TRUE(out->bytes.starts_with("Plain\n\nParagraph 0")) << out->bytes;
}

TEST(HtmlCompressorTest, PageWideFormIsNotDropped) {
  // ASP.NET pages wrap the whole body in one <form>.
  std::string in = "<html><body><form id=aspnetForm><div class=content>";
  for (int i = 0; i < 5; ++i) in += para(i);
  in += "</div></form></body></html>";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("Paragraph 4"), std::string::npos);
}

TEST(HtmlCompressorTest, SmallWinnerFallsBackToTheWholeBody) {
  // Legacy page: most text sits loose in <body>; one <div> holds a single paragraph.
  std::string in = "<html><body><h2>Legacy</h2>";
  for (int i = 0; i < 6; ++i) in += "Loose text line " + std::to_string(i) + " that carries real content.\n";
  in += "<div class=content>" + para(1) + "</div></body></html>";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("## Legacy"), std::string::npos) << out->bytes;
  EXPECT_NE(out->bytes.find("Loose text line 5"), std::string::npos);
  EXPECT_NE(out->bytes.find("Paragraph 1"), std::string::npos);
}

TEST(HtmlCompressorTest, DeclinesLinkFarmsAndThinPages) {
  std::string farm = "<html><body><div>";
  for (int i = 0; i < 20; ++i) {
    farm += "<p><a href=/x" + std::to_string(i) + ">A long link text number " + std::to_string(i) +
            "</a> ok</p>";
  }
  farm += "</div></body></html>";
  EXPECT_FALSE(run(farm).has_value());
  EXPECT_FALSE(run("<html><body><div><p>Only one short paragraph that scores a bit.</p></div>"
                   "<script>" + std::string(500, 'x') + "</script></body></html>")
                   .has_value());  // < 200 bytes of text
  EXPECT_FALSE(run("").has_value());
  EXPECT_FALSE(run("just text, no markup at all").has_value());
}

TEST(HtmlCompressorTest, DeepNestingIsRefusedBeforeParsing) {
  std::string deep;
  for (int i = 0; i < 50000; ++i) deep += "<div>";
  deep += para(1);
  EXPECT_GT(html::estimate_nesting(deep), html::kMaxNesting);
  EXPECT_FALSE(run(deep).has_value());
  // Void and auto-closing elements and script bodies do not count.
  std::string flat = "<ul>";
  for (int i = 0; i < 10000; ++i) flat += "<li>item<br><img src=x>";
  flat += "</ul><script>if (a<b && c<d) {}</script>";
  EXPECT_EQ(html::estimate_nesting(flat), 1u);
}

// Heading texts of a page, as a browser shows them (permalink "#" marks excluded).
std::vector<std::string> heading_texts(const std::string& html, std::string* title) {
  std::vector<std::string> out;
  GumboOutput* g = gumbo_parse(html.c_str());
  std::vector<const GumboNode*> stack{g->root};
  auto text_of = [](const GumboNode* root) {
    std::string t;
    std::vector<const GumboNode*> st{root};
    while (!st.empty()) {
      const GumboNode* n = st.back();
      st.pop_back();
      if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE) t += n->v.text.text;
      if (n->type != GUMBO_NODE_ELEMENT) continue;
      if (n->v.element.tag == GUMBO_TAG_A && n->v.element.children.length == 1) {
        auto* c = static_cast<const GumboNode*>(n->v.element.children.data[0]);
        if (c->type == GUMBO_NODE_TEXT && std::string(c->v.text.text) == "#") continue;
      }
      for (unsigned i = n->v.element.children.length; i-- > 0;) {
        st.push_back(static_cast<const GumboNode*>(n->v.element.children.data[i]));
      }
    }
    for (std::size_t p; (p = t.find("\xC2\xA0")) != std::string::npos;) t.replace(p, 2, " ");
    std::string collapsed;
    for (char c : t) {
      bool sp = c == ' ' || c == '\n' || c == '\t' || c == '\r';
      if (sp && (collapsed.empty() || collapsed.back() == ' ')) continue;
      collapsed.push_back(sp ? ' ' : c);
    }
    while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
    return collapsed;
  };
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    GumboTag t = n->v.element.tag;
    if (t == GUMBO_TAG_TITLE) *title = text_of(n);
    if (t == GUMBO_TAG_H1 || t == GUMBO_TAG_H2 || t == GUMBO_TAG_H3) {
      out.push_back(text_of(n));
      continue;
    }
    for (unsigned i = n->v.element.children.length; i-- > 0;) {
      stack.push_back(static_cast<const GumboNode*>(n->v.element.children.data[i]));
    }
  }
  gumbo_destroy_output(&kGumboDefaultOptions, g);
  return out;
}

TEST(HtmlCompressorTest, CorpusPagesKeepTitleHeadingsAndMustKeeps) {
  int seen = 0;
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.kind != "html") continue;
    ++seen;
    std::string in = corpus::read_file(f.path);
    auto out = run(in);
    ASSERT_TRUE(out.has_value()) << f.name;
    EXPECT_LT(out->bytes.size(), in.size()) << f.name;
    std::string title;
    std::vector<std::string> headings = heading_texts(in, &title);
    EXPECT_FALSE(title.empty());
    EXPECT_NE(out->bytes.find(title), std::string::npos) << f.name << ": " << title;
    EXPECT_FALSE(headings.empty()) << f.name;
    for (const std::string& h : headings) {
      EXPECT_NE(out->bytes.find(h), std::string::npos) << f.name << ": heading " << h;
    }
    for (const auto& needle : f.must_keep) {
      EXPECT_NE(out->bytes.find(needle), std::string::npos) << f.name << ": " << needle;
    }
    EXPECT_FALSE(run(out->bytes).has_value()) << f.name;
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not available";
}

}  // namespace
}  // namespace caveman::compress
