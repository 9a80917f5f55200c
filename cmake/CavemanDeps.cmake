# System libraries from Debian packages (scripts/bootstrap.sh installs them).
# Nothing is downloaded at build time.
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(SQLiteCpp REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(CLI11 CONFIG QUIET)
find_package(spdlog REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(ZLIB REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(PkgConfig REQUIRED)

# cpp-httplib ships no CMake config on Debian: use pkg-config and keep its
# compile definitions (OpenSSL, zlib, brotli support).
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)

if(NOT TARGET CLI11::CLI11)
  # Debian's libcli11-dev installs the header only; wrap it in a target.
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()
