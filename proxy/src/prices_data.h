// bench/prices.json as text, embedded by proxy/CMakeLists.txt (generated prices_data.cpp).
#ifndef CAVEMAN_PROXY_PRICES_DATA_H_
#define CAVEMAN_PROXY_PRICES_DATA_H_

#include <string_view>

namespace caveman::proxy {
std::string_view embedded_prices_json();
}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_PRICES_DATA_H_
