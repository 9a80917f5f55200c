// O200kCounter: the o200k pre-tokenizer (pretokenize.h) feeding byte-level BPE (bpe.h) over the
// embedded vocabulary (vocab.h). Special tokens are never recognised: `<|endoftext|>` is
// counted as the ordinary text it is (tiktoken's encode_ordinary).
#include "caveman/tokens.h"
#include "text/utf8.h"
#include "tokens/bpe.h"
#include "tokens/pretokenize.h"
#include "tokens/vocab.h"

namespace caveman::tokens {

std::size_t ApproxCounter::count(std::string_view text) const {
  if (text.empty()) return 0;
  std::size_t runes = text::rune_count(text);
  return runes < 4 ? 1 : runes / 4;
}

std::size_t O200kCounter::count(std::string_view text) const {
  const Vocab& vocab = Vocab::o200k();
  std::size_t total = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = next_piece_end(text, pos);
    total += bpe_count(vocab, text.substr(pos, end - pos));
    pos = end;
  }
  return total;
}

std::vector<std::uint32_t> O200kCounter::encode(std::string_view text) const {
  const Vocab& vocab = Vocab::o200k();
  std::vector<std::uint32_t> ids;
  ids.reserve(text.size() / 4 + 1);
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = next_piece_end(text, pos);
    bpe_encode(vocab, text.substr(pos, end - pos), ids);
    pos = end;
  }
  return ids;
}

const O200kCounter& default_counter() {
  static const auto* counter = new O200kCounter();
  return *counter;
}

}  // namespace caveman::tokens
