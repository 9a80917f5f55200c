// Build-time generator: o200k_base.tiktoken → the binary table the engine embeds with .incbin.
//
// usage: gen_o200k_table <o200k_base.tiktoken> <out.bin> <out_info.h>
//
// Validates the vocabulary (base64, ranks contiguous from 0, no duplicate byte strings, all 256
// single bytes present, lengths ≤ 255, bytes < 2 MiB) and exits non-zero with a message on any
// problem, so a bad vocabulary fails the build instead of miscounting. The info header carries
// the blob's absolute path (also as a ready `.incbin` directive), size and FNV-1a hash: including
// it makes both the compiler's dependency scan and ccache see a change whenever the blob changes.
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base64.h"
#include "tokens/table_format.h"

namespace {

namespace tf = caveman::tokens::table;

int fail(const std::string& message) {
  std::cerr << "gen_o200k_table: " << message << "\n";
  return 1;
}

std::size_t align64(std::size_t n) { return (n + 63) & ~std::size_t{63}; }

std::string c_string_literal(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: gen_o200k_table <vocab.tiktoken> <out.bin> <out_info.h>");
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) return fail(std::string("cannot open ") + argv[1]);

  std::vector<std::string> tokens;  // index = rank
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::size_t space = line.find(' ');
    if (space == std::string::npos) return fail("line " + std::to_string(line_no) + ": no rank");
    std::optional<std::string> bytes = caveman::base64_decode(std::string_view(line).substr(0, space));
    if (!bytes) return fail("line " + std::to_string(line_no) + ": bad base64");
    std::string decoded = std::move(*bytes);
    std::uint64_t rank = 0;
    std::string digits = line.substr(space + 1);
    if (digits.empty() || digits.size() > 9) return fail("line " + std::to_string(line_no));
    for (char c : digits) {
      if (c < '0' || c > '9') return fail("line " + std::to_string(line_no) + ": bad rank");
      rank = rank * 10 + std::uint64_t(c - '0');
    }
    if (rank != tokens.size()) {
      return fail("line " + std::to_string(line_no) + ": ranks must be contiguous from 0");
    }
    if (decoded.empty() || decoded.size() > tf::kMaxTokenBytes) {
      return fail("line " + std::to_string(line_no) + ": token length out of range");
    }
    tokens.push_back(std::move(decoded));
  }
  std::size_t count = tokens.size();
  if (count == 0 || count >= (std::size_t{1} << tf::kRankBits)) return fail("token count");

  tf::TableHeader header{};
  std::memcpy(header.magic, tf::kMagic, sizeof header.magic);
  header.version = tf::kFormatVersion;
  header.token_count = static_cast<std::uint32_t>(count);
  // Load factor below 0.4 keeps linear probes short.
  std::uint32_t slot_bits = 10;
  while ((std::size_t{1} << slot_bits) * 2 / 5 < count) ++slot_bits;
  header.slot_bits = slot_bits;

  std::vector<std::uint32_t> offsets(count + 1);
  std::string bytes;
  for (std::size_t r = 0; r < count; ++r) {
    offsets[r] = static_cast<std::uint32_t>(bytes.size());
    bytes += tokens[r];
    if (tokens[r].size() > header.max_token_bytes) {
      header.max_token_bytes = static_cast<std::uint32_t>(tokens[r].size());
    }
  }
  offsets[count] = static_cast<std::uint32_t>(bytes.size());
  if (bytes.size() >= (std::size_t{1} << tf::kOffsetBits)) return fail("bytes exceed 2 MiB");
  header.bytes_size = static_cast<std::uint32_t>(bytes.size());

  for (auto& r : header.byte_rank) r = tf::kNoRank;
  std::size_t slot_count = std::size_t{1} << slot_bits;
  std::size_t mask = slot_count - 1;
  std::vector<std::uint64_t> slots(slot_count, 0);
  for (std::size_t r = 0; r < count; ++r) {
    const std::string& t = tokens[r];
    const auto* p = reinterpret_cast<const unsigned char*>(t.data());
    if (t.size() == 1) header.byte_rank[p[0]] = static_cast<std::uint32_t>(r);
    std::uint64_t h = tf::hash_bytes(p, t.size());
    std::uint64_t tag = h >> tf::kTagShift;
    std::size_t idx = h & mask;
    std::uint32_t probe = 1;
    while (slots[idx] != 0) {
      std::uint64_t e = slots[idx];
      std::size_t off = e & ((std::uint64_t{1} << tf::kOffsetBits) - 1);
      std::size_t len = (e >> tf::kLengthShift) & ((1u << tf::kLengthBits) - 1);
      if (len == t.size() && bytes.compare(off, len, t) == 0) {
        return fail("duplicate token bytes at rank " + std::to_string(r));
      }
      idx = (idx + 1) & mask;
      ++probe;
    }
    if (probe > header.max_probe) header.max_probe = probe;
    slots[idx] = std::uint64_t{offsets[r]} | (std::uint64_t{t.size()} << tf::kLengthShift) |
                 (std::uint64_t{r} << tf::kRankShift) | (tag << tf::kTagShift);
  }
  for (int b = 0; b < 256; ++b) {
    if (header.byte_rank[b] == tf::kNoRank)
      return fail("single byte missing: " + std::to_string(b));
  }

  std::vector<std::uint32_t> pair_rank(65536, tf::kNoRank);
  for (std::size_t r = 0; r < count; ++r) {
    const std::string& t = tokens[r];
    if (t.size() == 2) {
      auto b0 = static_cast<unsigned char>(t[0]);
      auto b1 = static_cast<unsigned char>(t[1]);
      pair_rank[(std::size_t{b0} << 8) | b1] = static_cast<std::uint32_t>(r);
    }
  }

  header.pair_rank_offset = align64(sizeof header);
  header.slots_offset = align64(header.pair_rank_offset + pair_rank.size() * sizeof(std::uint32_t));
  header.offsets_offset = align64(header.slots_offset + slot_count * sizeof(std::uint64_t));
  header.bytes_offset = align64(header.offsets_offset + offsets.size() * sizeof(std::uint32_t));
  header.total_size = align64(header.bytes_offset + bytes.size());

  std::string blob(header.total_size, '\0');
  std::memcpy(blob.data(), &header, sizeof header);
  std::memcpy(blob.data() + header.pair_rank_offset, pair_rank.data(),
              pair_rank.size() * sizeof(std::uint32_t));
  std::memcpy(blob.data() + header.slots_offset, slots.data(), slot_count * sizeof(std::uint64_t));
  std::memcpy(blob.data() + header.offsets_offset, offsets.data(),
              offsets.size() * sizeof(std::uint32_t));
  std::memcpy(blob.data() + header.bytes_offset, bytes.data(), bytes.size());

  std::uint64_t fnv = 0xcbf29ce484222325ull;
  for (unsigned char c : blob) fnv = (fnv ^ c) * 0x100000001b3ull;

  std::string bin_path = argv[2];
  {
    std::ofstream out(bin_path, std::ios::binary | std::ios::trunc);
    out.write(blob.data(), static_cast<std::streamsize>(blob.size()));
    if (!out) return fail("cannot write " + bin_path);
  }
  std::ostringstream info;
  info << "// Generated by gen_o200k_table from o200k_base.tiktoken. Do not edit.\n"
       << "#ifndef CAVEMAN_TOKENS_O200K_TABLE_INFO_H_\n#define CAVEMAN_TOKENS_O200K_TABLE_INFO_H_\n"
       << "#define CAVEMAN_O200K_TABLE_PATH " << c_string_literal(bin_path) << "\n"
       << "#define CAVEMAN_O200K_TABLE_INCBIN "
       << c_string_literal(".incbin " + c_string_literal(bin_path)) << "\n"
       << "#define CAVEMAN_O200K_TABLE_SIZE " << blob.size() << "u\n"
       << "#define CAVEMAN_O200K_TABLE_FNV1A 0x" << std::hex << fnv << std::dec << "ull\n"
       << "#define CAVEMAN_O200K_TOKEN_COUNT " << count << "u\n"
       << "#endif\n";
  std::ofstream out_info(argv[3], std::ios::binary | std::ios::trunc);
  out_info << info.str();
  if (!out_info) return fail(std::string("cannot write ") + argv[3]);
  std::cerr << "gen_o200k_table: " << count << " tokens, " << slot_count << " slots (max probe "
            << header.max_probe << "), " << blob.size() << " bytes\n";
  return 0;
}
