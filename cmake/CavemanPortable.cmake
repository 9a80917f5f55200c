# Portable executables for the prebuilt packages (npm, docs/STATUS.md "Platforms").
# CAVEMAN_PORTABLE_RUNTIME links libstdc++ and libgcc statically into the seven user-facing
# binaries — a link flag only, the objects are the same — so they need no particular GCC
# runtime on the target machine; glibc and the libraries listed in docs/cli.md ("Install from
# npm") stay shared. ON in the release preset (what `make build` and `make npm-pack` use), OFF
# in the sanitizer trees, whose runtimes expect the shared libstdc++.
option(CAVEMAN_PORTABLE_RUNTIME "Link libstdc++ and libgcc statically into the seven binaries" OFF)

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
