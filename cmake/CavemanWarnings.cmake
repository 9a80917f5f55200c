# Warnings apply to caveman's own targets only, never to third_party/.
function(caveman_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
                         -Wno-missing-field-initializers
                         $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
  # clang checks the GUARDED_BY/REQUIRES annotations of caveman/base/mutex.h (docs/base.md);
  # a violation is always an error, so every clang build (CI's fuzz preset) enforces them.
  target_compile_options(${target} PRIVATE
                         $<$<CXX_COMPILER_ID:Clang,AppleClang>:-Wthread-safety -Werror=thread-safety>)
  if(CAVEMAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
