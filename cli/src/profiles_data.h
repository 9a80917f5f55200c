// The agent profile JSON files of cli/profiles/, embedded at configure time (the generated
// profiles_data.cpp lives in the build tree). Texts are in file-name order.
#ifndef CAVEMAN_CLI_PROFILES_DATA_H_
#define CAVEMAN_CLI_PROFILES_DATA_H_

#include <string_view>
#include <vector>

namespace caveman::cli {

const std::vector<std::string_view>& embedded_profile_texts();

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_PROFILES_DATA_H_
