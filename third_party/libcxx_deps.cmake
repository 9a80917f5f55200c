# The C++ libraries Debian ships compiled against libstdc++, built from source for a libc++ tree
# (CAVEMAN_LIBCXX, the fuzz preset; docs/STATUS.md#clang--libc-the-macos-proxy). The targets
# take the names the Debian packages export, so the components link the same names in every tree.
# Sources: the folders' VENDORED.md (Debian's source packages of the versions Debian 12 ships);
# GoogleTest from /usr/src/googletest (libgtest-dev). Warnings are never applied here, and
# libFuzzer's coverage instrumentation is left off (Debian's libraries never had it): the fuzzers
# steer by the caveman code, the sanitizers still check these libraries.
set(CAVEMAN_TP ${CMAKE_CURRENT_SOURCE_DIR})

function(caveman_libcxx_dep target)
  target_compile_options(${target} PRIVATE -w $<$<BOOL:${CAVEMAN_BUILD_FUZZ}>:-fno-sanitize=fuzzer-no-link>)
endfunction()

# fmt 9.1.0 (compiled, for spdlog; Debian's fmt::fmt is a shared library).
add_library(caveman_fmt STATIC ${CAVEMAN_TP}/fmt/src/format.cc ${CAVEMAN_TP}/fmt/src/os.cc)
target_include_directories(caveman_fmt SYSTEM PUBLIC ${CAVEMAN_TP}/fmt/include)
caveman_libcxx_dep(caveman_fmt)
add_library(fmt::fmt ALIAS caveman_fmt)

# spdlog 1.10.0, compiled once (SPDLOG_COMPILED_LIB) against the external fmt, as Debian's.
add_library(caveman_spdlog STATIC
  ${CAVEMAN_TP}/spdlog/src/async.cpp ${CAVEMAN_TP}/spdlog/src/cfg.cpp
  ${CAVEMAN_TP}/spdlog/src/color_sinks.cpp ${CAVEMAN_TP}/spdlog/src/file_sinks.cpp
  ${CAVEMAN_TP}/spdlog/src/spdlog.cpp ${CAVEMAN_TP}/spdlog/src/stdout_sinks.cpp)
target_include_directories(caveman_spdlog SYSTEM PUBLIC ${CAVEMAN_TP}/spdlog/include)
target_compile_definitions(caveman_spdlog PUBLIC SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)
target_link_libraries(caveman_spdlog PUBLIC fmt::fmt Threads::Threads)
caveman_libcxx_dep(caveman_spdlog)
add_library(spdlog::spdlog ALIAS caveman_spdlog)

# SQLiteCpp 3.2.1 over the system's sqlite3.
file(GLOB CAVEMAN_SQLITECPP_SOURCES ${CAVEMAN_TP}/sqlitecpp/src/*.cpp)
add_library(SQLiteCpp STATIC ${CAVEMAN_SQLITECPP_SOURCES})
target_include_directories(SQLiteCpp SYSTEM PUBLIC ${CAVEMAN_TP}/sqlitecpp/include)
target_compile_definitions(SQLiteCpp PUBLIC SQLITE_ENABLE_COLUMN_METADATA)
target_link_libraries(SQLiteCpp PUBLIC SQLite::SQLite3 Threads::Threads ${CMAKE_DL_LIBS})
caveman_libcxx_dep(SQLiteCpp)

# yaml-cpp 0.7.0 (without contrib/).
file(GLOB CAVEMAN_YAML_CPP_SOURCES ${CAVEMAN_TP}/yaml-cpp/src/*.cpp)
add_library(yaml-cpp STATIC ${CAVEMAN_YAML_CPP_SOURCES})
target_include_directories(yaml-cpp SYSTEM PUBLIC ${CAVEMAN_TP}/yaml-cpp/include)
caveman_libcxx_dep(yaml-cpp)

# cpp-httplib 0.11.4: the split header (the same as Debian's) and its implementation compiled once,
# with the definitions Debian's pkg-config file and build use.
add_library(caveman_httplib STATIC ${CAVEMAN_TP}/cpp-httplib/httplib.cc)
target_include_directories(caveman_httplib SYSTEM PUBLIC ${CAVEMAN_TP}/cpp-httplib)
target_compile_definitions(caveman_httplib
  PUBLIC CPPHTTPLIB_OPENSSL_SUPPORT CPPHTTPLIB_ZLIB_SUPPORT CPPHTTPLIB_BROTLI_SUPPORT
  PRIVATE CPPHTTPLIB_USE_POLL)
pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlicommon libbrotlidec libbrotlienc)
target_link_libraries(caveman_httplib
  PUBLIC OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB PkgConfig::BROTLI Threads::Threads)
caveman_libcxx_dep(caveman_httplib)
add_library(httplib::httplib ALIAS caveman_httplib)

# GoogleTest 1.12 from the sources libgtest-dev ships.
if(CAVEMAN_BUILD_TESTS)
  set(CAVEMAN_GTEST_SRC /usr/src/googletest)
  if(NOT EXISTS ${CAVEMAN_GTEST_SRC}/googletest/src/gtest-all.cc)
    message(FATAL_ERROR "CAVEMAN_LIBCXX: no ${CAVEMAN_GTEST_SRC} (apt-get install libgtest-dev)")
  endif()
  add_library(caveman_gtest STATIC ${CAVEMAN_GTEST_SRC}/googletest/src/gtest-all.cc)
  target_include_directories(caveman_gtest SYSTEM PUBLIC ${CAVEMAN_GTEST_SRC}/googletest/include
                             PRIVATE ${CAVEMAN_GTEST_SRC}/googletest)
  target_link_libraries(caveman_gtest PUBLIC Threads::Threads)
  add_library(caveman_gtest_main STATIC ${CAVEMAN_GTEST_SRC}/googletest/src/gtest_main.cc)
  target_link_libraries(caveman_gtest_main PUBLIC caveman_gtest)
  add_library(caveman_gmock STATIC ${CAVEMAN_GTEST_SRC}/googlemock/src/gmock-all.cc)
  target_include_directories(caveman_gmock SYSTEM PUBLIC ${CAVEMAN_GTEST_SRC}/googlemock/include
                             PRIVATE ${CAVEMAN_GTEST_SRC}/googlemock)
  target_link_libraries(caveman_gmock PUBLIC caveman_gtest)
  foreach(t caveman_gtest caveman_gtest_main caveman_gmock)
    caveman_libcxx_dep(${t})
  endforeach()
  add_library(GTest::gtest ALIAS caveman_gtest)
  add_library(GTest::gtest_main ALIAS caveman_gtest_main)
  add_library(GTest::gmock ALIAS caveman_gmock)
endif()
