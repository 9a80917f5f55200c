# System libraries from Debian packages (scripts/bootstrap.sh installs them).
# Nothing is downloaded at build time.

# CAVEMAN_LIBCXX builds the tree with clang's -stdlib=libc++ (LLVM's C++ library, macOS's), the
# nearest proxy for macOS here (docs/STATUS.md#clang--libc-the-macos-proxy). ON in the fuzz
# preset, so `make test`'s sanitizer tree is also the libc++ tree. Debian's C++ libraries are
# compiled against libstdc++ and cannot link into it: SQLiteCpp, yaml-cpp, cpp-httplib, spdlog,
# fmt and GoogleTest are then built from source (third_party/libcxx_deps.cmake) under the same
# target names; the C libraries and header-only ones stay Debian's.
option(CAVEMAN_LIBCXX "Build with clang and libc++; the C++ dependencies from third_party/" OFF)
if(CAVEMAN_LIBCXX)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CAVEMAN_LIBCXX needs clang (-stdlib=libc++)")
  endif()
  if(CAVEMAN_STATIC_DEPS OR CAVEMAN_PORTABLE_RUNTIME)
    message(FATAL_ERROR "CAVEMAN_LIBCXX excludes CAVEMAN_STATIC_DEPS and CAVEMAN_PORTABLE_RUNTIME "
                        "(both are about Debian's libstdc++ libraries)")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-stdlib=libc++>)
  add_link_options($<$<LINK_LANGUAGE:CXX>:-stdlib=libc++>)
endif()

find_package(Threads REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)

if(NOT CAVEMAN_LIBCXX)
  find_package(SQLiteCpp REQUIRED)
  find_package(spdlog REQUIRED)
  find_package(yaml-cpp REQUIRED)
  # cpp-httplib ships no CMake config on Debian: use pkg-config and keep its
  # compile definitions (OpenSSL, zlib, brotli support), under upstream's target name.
  pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
  add_library(httplib::httplib ALIAS PkgConfig::HTTPLIB)
endif()

# What a libFuzzer target links (tests/fuzz, browse/): -fsanitize=fuzzer, and under libc++ also
# libstdc++ by path, because Debian's libFuzzer runtime is compiled against libstdc++ (clang turns
# -lstdc++ into -lc++ under -stdlib=libc++). Only C (LLVMFuzzerTestOneInput) crosses between the
# two runtimes.
if(CAVEMAN_BUILD_FUZZ)
  add_library(caveman_fuzzer_runtime INTERFACE)
  target_link_options(caveman_fuzzer_runtime INTERFACE -fsanitize=fuzzer)
  if(CAVEMAN_LIBCXX)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                    OUTPUT_VARIABLE CAVEMAN_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${CAVEMAN_LIBSTDCXX}" OR NOT EXISTS "${CAVEMAN_LIBSTDCXX}")
      message(FATAL_ERROR "CAVEMAN_LIBCXX: libFuzzer's libstdc++.so not found (${CAVEMAN_LIBSTDCXX})")
    endif()
    target_link_libraries(caveman_fuzzer_runtime INTERFACE ${CAVEMAN_LIBSTDCXX})
  endif()
endif()
