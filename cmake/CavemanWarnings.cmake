# Warnings apply to caveman's own targets only, never to third_party/.
function(caveman_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
                         -Wno-missing-field-initializers
                         $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
  if(CAVEMAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
