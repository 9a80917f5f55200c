# Portable executables for the prebuilt packages (npm, docs/STATUS.md "Platforms").
# CAVEMAN_PORTABLE_RUNTIME links libstdc++ and libgcc statically into the seven user-facing
# binaries — a link flag only, the objects are the same — so they need no particular GCC
# runtime on the target machine; glibc and the libraries listed in docs/cli.md ("Install from
# npm") stay shared. ON in the release preset (what `make build` and `make npm-pack` use), OFF
# in the sanitizer trees, whose runtimes expect the shared libstdc++.
option(CAVEMAN_PORTABLE_RUNTIME "Link libstdc++ and libgcc statically into the seven binaries" OFF)
# CAVEMAN_STATIC_DEPS links Debian's static archives of sqlite3, yaml-cpp, gumbo and tree-sitter
# instead of their shared libraries (every target of the tree: the imported targets are swapped).
# OpenSSL, zlib and brotli stay shared because Debian's shared cpp-httplib links them (two copies
# of OpenSSL in one process would not share state); spdlog, fmt and cpp-httplib have no static
# archive in Debian. ON in the release preset.
option(CAVEMAN_STATIC_DEPS "Link sqlite3, yaml-cpp, gumbo and tree-sitter statically" OFF)

# Must run after CavemanDeps (the imported targets must exist).
function(caveman_static_deps)
  if(NOT CAVEMAN_STATIC_DEPS)
    return()
  endif()
  foreach(lib sqlite3 yaml-cpp gumbo tree-sitter)
    find_library(CAVEMAN_STATIC_${lib} NAMES lib${lib}.a REQUIRED)
  endforeach()
  set_target_properties(SQLite::SQLite3 PROPERTIES IMPORTED_LOCATION "${CAVEMAN_STATIC_sqlite3}")
  set_property(TARGET SQLite::SQLite3 APPEND PROPERTY INTERFACE_LINK_LIBRARIES m Threads::Threads
               ${CMAKE_DL_LIBS})
  get_target_property(yaml_configs yaml-cpp IMPORTED_CONFIGURATIONS)
  set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION "${CAVEMAN_STATIC_yaml-cpp}")
  foreach(config IN LISTS yaml_configs)
    set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION_${config} "${CAVEMAN_STATIC_yaml-cpp}"
                          IMPORTED_SONAME_${config} "")
  endforeach()
  set_target_properties(PkgConfig::GUMBO PROPERTIES INTERFACE_LINK_LIBRARIES "${CAVEMAN_STATIC_gumbo}")
  set_target_properties(PkgConfig::TREE_SITTER PROPERTIES
                        INTERFACE_LINK_LIBRARIES "${CAVEMAN_STATIC_tree-sitter}")
endfunction()
caveman_static_deps()

set(CAVEMAN_PRODUCT_BINARIES caveman caveman-proxy caveman-engine caveman-mcp caveman-shrink
    caveman-browse cavemem)

# Called once after every tool directory is added (the targets must exist).
function(caveman_portable_runtime)
  if(NOT CAVEMAN_PORTABLE_RUNTIME)
    return()
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "CAVEMAN_PORTABLE_RUNTIME needs GCC or clang (-static-libstdc++)")
  endif()
  foreach(target IN LISTS CAVEMAN_PRODUCT_BINARIES)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endforeach()
endfunction()
