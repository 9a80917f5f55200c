#include "compress/toolschema/description.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "json/json.h"
#include "unit/engine/compress/toolschema/toolschema_fixtures.h"

namespace caveman::toolschema {
namespace {

std::string condense(std::string_view text, std::size_t cap = kParamLeadCap,
                     bool has_default = false) {
  return condense_description(text, DescriptionOptions{cap, has_default});
}

TEST(SplitSentences, SplitsAtTerminatorBeforeCapital) {
  EXPECT_EQ(split_sentences("Go there. Then stop! Why? Because."),
            (std::vector<std::string_view>{"Go there.", "Then stop!", "Why?", "Because."}));
}

TEST(SplitSentences, KeepsAbbreviationsAndLowercaseContinuations) {
  EXPECT_EQ(split_sentences("Use a key, e.g. Enter or Tab. Done"),
            (std::vector<std::string_view>{"Use a key, e.g. Enter or Tab.", "Done"}));
  EXPECT_EQ(split_sentences("Call fill() first. it is lower."),
            (std::vector<std::string_view>{"Call fill() first. it is lower."}));
  EXPECT_EQ(split_sentences("Path (.mp4). Uses mkdtemp"),
            (std::vector<std::string_view>{"Path (.mp4).", "Uses mkdtemp"}));
}

TEST(SplitSentences, SplitsAfterTheEllipsisOfACutLead) {
  EXPECT_EQ(split_sentences("Bypass cache when reloading\xE2\x80\xA6 Only valid if reload"),
            (std::vector<std::string_view>{"Bypass cache when reloading\xE2\x80\xA6",
                                           "Only valid if reload"}));
  EXPECT_EQ(split_sentences("Wait\xE2\x80\xA6 then go"),
            (std::vector<std::string_view>{"Wait\xE2\x80\xA6 then go"}));
}

TEST(StatesConstraint, StrongMarkers) {
  for (std::string_view s :
       {"The value must be positive.", "Cannot be used with element screenshots.",
        "Provide either text or regex, not both.", "Requires a UID from take_snapshot.",
        "Latitude between -90 and 90.", "Dates follow RFC 3339.", "At most 30 seconds.",
        "Incompatible with uid.", "Matching is case-sensitive by default.",
        "Only use the ids given in the list.", "Only applies if reload is true.",
        "Time to wait in seconds, up to 30.", "Quality (0-100).", "Ignored for PNG format.",
        "Format: YYYY-MM-DD.", "Non-empty list of texts.", "Never pass secrets."}) {
    EXPECT_TRUE(states_constraint(s)) << s;
  }
}

TEST(StatesConstraint, WeakWordsAloneAreNotConstraints) {
  for (std::string_view s :
       {"Image format for the screenshot.", "The absolute or relative path to a file.",
        "Return the preserved messages over the last navigations.",
        "Cheaper when you only need to locate an element.",
        "The snapshot lists elements with a unique identifier.",
        "ALWAYS prefer this tool over multiple individual calls.", "1-based index."}) {
    EXPECT_FALSE(states_constraint(s)) << s;
  }
  EXPECT_TRUE(states_constraint("An absolute path to the file."));
}

TEST(Condense, KeepsLeadAndConstraintSentencesInOrder) {
  EXPECT_EQ(condense("JavaScript source to execute. The source is interpreted by format. "
                     "Provide either this or sourcePath, but not both. Example: `() => 1`."),
            "JavaScript source to execute. Provide either this or sourcePath, but not both");
}

TEST(Condense, CapsTheLeadAtAWordBoundaryWithAnEllipsis) {
  std::string out = condense(
      "Determines whether the trace recording should be automatically stopped when the page "
      "finishes loading");
  EXPECT_LE(out.size(), kParamLeadCap);
  EXPECT_TRUE(out.ends_with("\xE2\x80\xA6")) << out;
  EXPECT_EQ(out.find("automatically stopp\xE2\x80\xA6"), std::string::npos) << "cut mid-word";
  // A tool's lead may use the larger cap.
  EXPECT_LE(condense(std::string(200, 'x'), kToolLeadCap).size(), kToolLeadCap);
}

TEST(Condense, PrefersAClauseBreakWhenTheHeadSaysEnough) {
  EXPECT_EQ(condense("Bypass the HTTP cache when reloading the page, to measure a cold page load "
                     "in a realistic way"),
            "Bypass HTTP cache when reloading page\xE2\x80\xA6");
}

TEST(Condense, DropsDefaultRestatementOnlyWhenTheSchemaHasADefault) {
  std::string text = "Image resolution scale. Default is css.";
  EXPECT_EQ(condense(text, kParamLeadCap, /*has_default=*/true), "Image resolution scale");
  // Without a `default` member the sentence is the only place the default is stated, but it
  // is not a constraint either, so only the lead stays.
  EXPECT_EQ(condense(text, kParamLeadCap, /*has_default=*/false), "Image resolution scale");
  EXPECT_EQ(condense("Defaults to true.", kParamLeadCap, true), "");
  // A constraint is never dropped as a restatement.
  EXPECT_EQ(condense("Defaults to at most 5 retries.", kParamLeadCap, true),
            "Defaults to at most 5 retries");
}

TEST(Condense, DropsExampleParentheticals) {
  EXPECT_EQ(condense("Run a command. Use this when fill() cannot be used (e.g., keyboard "
                     "shortcuts or special keys)."),
            "Run command. Use this when fill() cannot be used");
}

TEST(Condense, CavemanProseSparesQuotesAndCode) {
  EXPECT_EQ(condense("The uid of an element on the page"), "Uid of element on page");
  EXPECT_EQ(condense("Whether to include a snapshot in the response"),
            "Include snapshot in response");
  EXPECT_EQ(condense("Pass `a the b` or \"the a\" to the tool"), "Pass `a the b` or \"the a\" to tool");
  EXPECT_EQ(condense("A B or C"), "A B or C");  // "A" names something here
}

TEST(Condense, IsIdempotentOnRealCatalogDescriptions) {
  int checked = 0;
  for (const std::string& catalog : {testing::playwright_catalog(),
                                     testing::chrome_devtools_catalog()}) {
    std::optional<json::Value> doc = json::parse(catalog);
    ASSERT_TRUE(doc);
    std::vector<const json::Value*> stack{&*doc};
    while (!stack.empty()) {
      const json::Value* v = stack.back();
      stack.pop_back();
      for (const json::Value& item : v->items) stack.push_back(&item);
      for (const json::Member& m : v->members) {
        if (m.key == "description" && m.value.is_string()) {
          for (std::size_t cap : {kParamLeadCap, kToolLeadCap}) {
            std::string once = condense(m.value.text, cap);
            EXPECT_EQ(condense(once, cap), once) << m.value.text;
            EXPECT_LE(once.size(), m.value.text.size());
            ++checked;
          }
        }
        stack.push_back(&m.value);
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// Found by fuzz_shrink: a cut lead followed by a sentence that is a constraint only because
// it starts with "Only" — the second pass must still see two sentences, not cut them again.
TEST(Condense, IsIdempotentWhenACutLeadPrecedesAnOnlySentence) {
  std::string text =
      "Whether to bypass the HTTP cache when reloading the page, to measure a cold page load. "
      "Only appli_s if reload is true.";
  std::string once = condense(text);
  EXPECT_EQ(once,
            "Bypass HTTP cache when reloading page\xE2\x80\xA6 Only appli_s if reload is true");
  EXPECT_EQ(condense(once), once);
}

// Found by fuzz_shrink: dropping the final '.' of "Latitude between ." left a trailing space.
TEST(Condense, DroppingTheFinalDotLeavesNoTrailingSpace) {
  std::string once = condense("Geolocation to emulate. Latitude between .", kToolLeadCap);
  EXPECT_EQ(once, "Geolocation to emulate. Latitude between");
  EXPECT_EQ(condense(once, kToolLeadCap), once);
}

TEST(EchoesNames, DropsDescriptionsThatOnlyRestateTheNames) {
  EXPECT_TRUE(echoes_names("Page width", {"width", "resize_page"}));
  EXPECT_TRUE(echoes_names("The text to type", {"text", "type_text"}));
  EXPECT_TRUE(echoes_names("Include snapshot in response", {"includeSnapshot", "click"}));
  EXPECT_FALSE(echoes_names("Maximum number of CSS rules", {"pageSize", "get_css_styles"}));
  EXPECT_FALSE(echoes_names("Prompt text to enter into dialog", {"promptText", "handle_dialog"}));
  EXPECT_FALSE(echoes_names("Device to emulate", {"device", "lighthouse_audit"}));
}

TEST(NameWords, SplitsIdentifiers) {
  EXPECT_EQ(name_words("includeSnapshot"), (std::vector<std::string>{"include", "snapshot"}));
  EXPECT_EQ(name_words("from_uid"), (std::vector<std::string>{"from", "uid"}));
  EXPECT_EQ(name_words("HTTPHeaders"), (std::vector<std::string>{"http", "header"}));
  EXPECT_EQ(name_words("type"), (std::vector<std::string>{"type"}));
}

}  // namespace
}  // namespace caveman::toolschema
