// Standard base64 (RFC 4648 §4, with padding): the PNG pages of pixel mode, binary tool
// output on the native socket, the WebSocket handshake of caveman-browse.
#ifndef CAVEMAN_BASE64_H_
#define CAVEMAN_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman {

std::string base64_encode(std::string_view bytes);
// nullopt unless `text` is canonical padded base64 (length a multiple of 4, '=' only at the end).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace caveman

#endif  // CAVEMAN_BASE64_H_
