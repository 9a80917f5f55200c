# cmake -DFILE=<path> -DEXPECTED=<sha256> -P verify_sha256.cmake
# Fails (non-zero exit) when the file's SHA-256 differs, so a corrupted or swapped
# vocabulary can never be embedded.
file(SHA256 "${FILE}" actual)
if(NOT actual STREQUAL EXPECTED)
  message(FATAL_ERROR "sha256 mismatch for ${FILE}: expected ${EXPECTED}, got ${actual}")
endif()
