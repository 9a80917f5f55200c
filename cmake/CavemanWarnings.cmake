# Warnings apply to caveman's own targets only, never to third_party/.
function(caveman_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                           -Wno-missing-field-initializers)
  if(CAVEMAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
