#include "tokens/vocab.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "o200k_table_info.h"  // generated: path, size and hash of the blob below

// The table generated at build time, linked in verbatim (no parsing, no file access at run
// time; pages are mapped from the executable and faulted in only when touched).
__asm__(
    ".section .rodata.caveman_o200k_table,\"a\",@progbits\n"
    ".balign 64\n"
    ".globl caveman_o200k_table\n"
    ".type caveman_o200k_table, @object\n"
    "caveman_o200k_table:\n" CAVEMAN_O200K_TABLE_INCBIN
    "\n"
    ".size caveman_o200k_table, . - caveman_o200k_table\n"
    ".previous\n");

// NOLINTNEXTLINE(readability-identifier-naming): the symbol is defined in the assembly above.
extern "C" const unsigned char caveman_o200k_table[];

namespace caveman::tokens {
namespace {

[[noreturn]] void die(const char* what) {
  spdlog::critical("embedded o200k_base table is damaged ({})", what);
  std::abort();
}

}  // namespace

Vocab::Vocab(const unsigned char* blob)
    : header_(reinterpret_cast<const table::TableHeader*>(blob)),
      pair_rank_(reinterpret_cast<const std::uint32_t*>(blob + header_->pair_rank_offset)),
      slots_(reinterpret_cast<const std::uint64_t*>(blob + header_->slots_offset)),
      offsets_(reinterpret_cast<const std::uint32_t*>(blob + header_->offsets_offset)),
      bytes_(blob + header_->bytes_offset),
      mask_((std::size_t{1} << header_->slot_bits) - 1) {
  if (std::memcmp(header_->magic, table::kMagic, sizeof table::kMagic) != 0) die("magic");
  if (header_->version != table::kFormatVersion) die("version");
  if (header_->total_size != CAVEMAN_O200K_TABLE_SIZE) die("size");
  if (header_->token_count != CAVEMAN_O200K_TOKEN_COUNT) die("token count");
}

const Vocab& Vocab::o200k() {
  static const Vocab kVocab(caveman_o200k_table);
  return kVocab;
}

}  // namespace caveman::tokens
