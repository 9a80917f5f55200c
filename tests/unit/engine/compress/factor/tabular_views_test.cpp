#include "compress/factor/tabular_views.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caveman/tokens.h"
#include "compress/factor/expand.h"
#include "support/corpus.h"
#include "support/corpus_skip.h"

namespace caveman::compress::factor {
namespace {

// Checks that a view expands to exactly `input` and is not factored again.
void expect_exact(const std::optional<std::string>& view, const std::string& input) {
  ASSERT_TRUE(view.has_value()) << input;
  std::optional<std::string> back = expand_blocks(*view);
  ASSERT_TRUE(back.has_value()) << *view;
  EXPECT_EQ(*back, input) << *view;
  EXPECT_FALSE(aligned_table_view(*view).has_value());
  EXPECT_FALSE(csv_columns_view(*view).has_value());
}

// psql output: 3 rows of settings repeated `times` times.
std::string psql_table(int times) {
  std::string s =
      "           name           | setting | unit | size \n"
      "--------------------------+---------+------+------\n";
  for (int i = 0; i < times; ++i) {
    s += " DateStyle                | ISO     |      |    8\n"
         " TimeZone                 | UTC     | s    |  120\n"
         " work_mem                 | 4096    | kB   |    4\n";
  }
  return s + "(" + std::to_string(3 * times) + " rows)\n\n";
}

TEST(AlignedTableViewTest, PsqlRowsLoseTheirPaddingAndKeepHeaderAndRule) {
  std::string psql = psql_table(4);
  std::optional<std::string> view = aligned_table_view(psql);
  expect_exact(view, psql);
  ASSERT_TRUE(view.has_value());
  EXPECT_TRUE(view->starts_with(
      "[aligned table of 12 rows: the header and rule lines as written, then a row per line, "
      "its cells unpadded and separated by \"|\" (pad each to its column's width in the "
      "rule); columns aligned left, left, left, right]\n"
      "           name           | setting | unit | size \n"
      "--------------------------+---------+------+------\n"
      "DateStyle|ISO||8\nTimeZone|UTC|s|120\nwork_mem|4096|kB|4\n"))
      << *view;
  EXPECT_TRUE(view->ends_with("work_mem|4096|kB|4\n(12 rows)\n\n")) << *view;
}

TEST(AlignedTableViewTest, MysqlBordersStayAndRowsLoseTheirPadding) {
  std::string mysql = "+----+--------------------+\n| id | name               |\n+----+--------------------+\n";
  for (int i = 0; i < 8; ++i) {
    mysql += "|  1 | alice              |\n|  2 | bob                |\n| 10 | charlotte          |\n";
  }
  mysql += "+----+--------------------+\n24 rows in set (0.00 sec)\n";
  std::optional<std::string> view = aligned_table_view(mysql);
  expect_exact(view, mysql);
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("\n1|alice\n2|bob\n10|charlotte\n"), std::string::npos) << *view;
  EXPECT_TRUE(view->ends_with("\n10|charlotte\n+----+--------------------+\n24 rows in set (0.00 sec)\n"));
}

TEST(AlignedTableViewTest, MultiLineCellsAreDeclined) {
  std::string psql = " id |  body   \n----+---------\n";
  for (int i = 0; i < 20; ++i) psql += "  1 | one    +\n    | two\n  2 | three\n";
  EXPECT_FALSE(aligned_table_view(psql).has_value());
}

TEST(AlignedTableViewTest, ACellHoldingABarIsDeclined) {
  std::string psql = " a   | b \n-----+---\n";
  for (int i = 0; i < 20; ++i) psql += " x|y | 1\n z   | 2\n";
  std::optional<std::string> view = aligned_table_view(psql);
  if (view) expect_exact(view, psql);
}

TEST(AlignedTableViewTest, GeneratedTablesRoundTripExactly) {
  std::mt19937 rng(21);
  int made = 0;
  const std::string words[] = {"a", "bb", "ccc", "", "12", "3.5", "x y", "off", "ü"};
  for (int round = 0; round < 200; ++round) {
    std::size_t cols = 2 + rng() % 4, rows = 2 + rng() % 30;
    std::vector<std::size_t> w(cols, 4 + rng() % 12);
    std::vector<bool> right(cols);
    for (std::size_t c = 0; c < cols; ++c) right[c] = rng() % 2;
    bool mysql = rng() % 2;
    auto line = [&](const std::vector<std::string>& cells, bool header) {
      std::string s = mysql ? "|" : "";
      for (std::size_t c = 0; c < cols; ++c) {
        std::string pad(w[c] - cells[c].size() + (cells[c] == "ü" ? 1 : 0), ' ');
        bool open = !mysql && !header && c + 1 == cols;
        s += right[c] && !header ? " " + pad + cells[c] : " " + cells[c] + (open ? "" : pad);
        if (c + 1 < cols) s += " |";
      }
      return s + (mysql ? " |" : "");
    };
    std::string rule = mysql ? "+" : "";
    for (std::size_t c = 0; c < cols; ++c) rule += std::string(w[c] + 2, '-') + (c + 1 < cols || mysql ? "+" : "");
    std::string table = line(std::vector<std::string>(cols, "h"), true) + "\n" + rule + "\n";
    for (std::size_t r = 0; r < rows; ++r) {
      std::vector<std::string> cells(cols);
      for (auto& cell : cells) cell = words[rng() % std::size(words)];
      table += line(cells, false) + "\n";
    }
    table += "(" + std::to_string(rows) + " rows)\n";
    std::optional<std::string> view = aligned_table_view(table);
    if (view) expect_exact(view, table);
    made += view.has_value();
  }
  EXPECT_GT(made, 100);
}

TEST(CsvColumnsViewTest, AConstantColumnIsStatedOnceInTheHeader) {
  std::string csv = "id,schema,name\n";
  for (int i = 0; i < 30; ++i) csv += std::to_string(100 + i) + ",pg_catalog,fn" + std::to_string(i) + "\n";
  std::optional<std::string> view = csv_columns_view(csv);
  expect_exact(view, csv);
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("schema = \"pg_catalog\""), std::string::npos) << *view;
  EXPECT_NE(view->find("\n100,fn0\n"), std::string::npos) << *view;
}

TEST(CsvColumnsViewTest, APrefixIsCutOnlyAtASeparator) {
  std::string tsv = "code\tTZ\n";
  for (int i = 0; i < 4; ++i) {
    for (std::string city : {"New_York", "Nome", "Noronha", "Chicago", "Denver", "Phoenix"}) {
      tsv += "US\tAmerica/" + city + "\n";
    }
  }
  std::optional<std::string> view = csv_columns_view(tsv);
  expect_exact(view, tsv);
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("TZ = \"America/\" + cell"), std::string::npos) << *view;
  EXPECT_EQ(view->find("America/N"), std::string::npos) << *view;  // "N" is no word end
}

TEST(CsvColumnsViewTest, AColumnMadeFromAnotherIsStatedOnce) {
  std::string csv = "name,tarball\n";
  for (int i = 0; i < 10; ++i) {
    std::string n = "pkg" + std::to_string(i * 7);
    csv += n + ",https://registry.example/" + n + ".tgz\n";
  }
  std::optional<std::string> view = csv_columns_view(csv);
  expect_exact(view, csv);
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("tarball = \"https://registry.example/\" + name + \".tgz\""), std::string::npos)
      << *view;
}

TEST(CsvColumnsViewTest, RepeatedValuesSplitTheTableIntoBlocksThatStateThem) {
  std::string csv = "oid,schema,name\n";
  for (int i = 0; i < 40; ++i) {
    csv += std::to_string(i) + (i < 30 ? ",pg_catalog," : ",information_schema,") + "f" +
           std::to_string(i * 13 % 97) + "\n";
  }
  std::optional<std::string> view = csv_columns_view(csv);
  expect_exact(view, csv);
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("[CSV rows: 30 records, columns: oid, schema = \"pg_catalog\""), std::string::npos) << *view;
  EXPECT_NE(view->find("[CSV rows: 10 records, columns: oid, schema = \"information_schema\""), std::string::npos) << *view;
}

TEST(CsvColumnsViewTest, QuotedFieldsStayAsWritten) {
  std::string csv = "id,args,kind\n";
  for (int i = 0; i < 10; ++i) csv += std::to_string(i) + ",\"\"\"char\"\", int\",f\n";
  std::optional<std::string> view = csv_columns_view(csv);
  expect_exact(view, csv);
}

TEST(CsvColumnsViewTest, RecordsOverSeveralLinesAreDeclined) {
  std::string csv = "id,note,kind\n1,\"two\nlines\",f\n";
  for (int i = 2; i < 10; ++i) csv += std::to_string(i) + ",x,f\n";
  EXPECT_FALSE(csv_columns_view(csv).has_value());
}

TEST(CsvColumnsViewTest, GeneratedCsvsRoundTripExactly) {
  std::mt19937 rng(7);
  const std::string cells[] = {"a", "a/b", "a/c", "x-1", "x-2", "\"q,r\"", "", "pre:1", "pre:22", "1"};
  for (int round = 0; round < 300; ++round) {
    std::size_t cols = 2 + rng() % 4, rows = 2 + rng() % 30;
    char d = rng() % 2 ? ',' : '\t';
    std::string csv;
    for (std::size_t c = 0; c < cols; ++c) csv += (c ? std::string(1, d) : "") + "c" + std::to_string(c % 3);
    csv += "\n";
    std::vector<std::size_t> fixed(cols);
    for (auto& f : fixed) f = rng() % std::size(cells);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        const std::string& v = rng() % 3 ? cells[fixed[c]] : cells[rng() % std::size(cells)];
        csv += (c ? std::string(1, d) : "") + v;
      }
      csv += "\n";
    }
    std::optional<std::string> view = csv_columns_view(csv);
    if (view) expect_exact(view, csv);
  }
}

TEST(TabularViewsCorpusTest, CorpusTablesRoundTripExactly) {
  std::size_t seen = 0;
  for (const corpus::CorpusFile& f : corpus::corpus_manifest()) {
    if (f.kind != "tabular") continue;
    ++seen;
    std::string input = corpus::read_file(f.path);
    for (std::optional<std::string> view : {aligned_table_view(input), csv_columns_view(input)}) {
      if (!view) continue;
      expect_exact(view, input);
      std::cout << f.name << ": " << input.size() << " -> " << view->size() << " bytes, "
                << tokens::default_counter().count(input) << " -> "
                << tokens::default_counter().count(*view) << " tokens\n";
    }
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not found at " << corpus::corpus_dir();
}

}  // namespace
}  // namespace caveman::compress::factor
