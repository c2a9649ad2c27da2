# CAPDESK_SANITIZE=address|thread builds every target of the tree with clang's
# sanitizers; CAPDESK_FUZZ=ON adds the libFuzzer targets of tests/fuzz. Qt itself stays
# Debian's uninstrumented build: ASan and UBSan need nothing from it, and TSan's reports
# inside Qt's own frames are suppressed (tests/tsan.supp says which and why).
#
# A sanitizer report fails the process that made it, so it fails its test: UBSan is built
# without recovery, and the options below make ASan and TSan stop at the first report.
set(CAPDESK_SANITIZE "" CACHE STRING "Build with sanitizers: empty, address (ASan+UBSan) or thread (TSan)")
set_property(CACHE CAPDESK_SANITIZE PROPERTY STRINGS "" address thread)
option(CAPDESK_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; implies CAPDESK_SANITIZE=address)" OFF)

if(CAPDESK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CAPDESK_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  if(CAPDESK_SANITIZE STREQUAL "")
    set(CAPDESK_SANITIZE address CACHE STRING "" FORCE)
  elseif(NOT CAPDESK_SANITIZE STREQUAL "address")
    message(FATAL_ERROR "CAPDESK_FUZZ builds with address sanitizing, not '${CAPDESK_SANITIZE}'")
  endif()
endif()

set(CAPDESK_SANITIZER_ENVIRONMENT "")
if(CAPDESK_SANITIZE STREQUAL "address")
  set(sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  # The ASan runtime's own exit code is 1, which a test that checks a child's exit code
  # could mistake for a refusal; 86 only ever means a sanitizer report.
  set(CAPDESK_SANITIZER_ENVIRONMENT
      "ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
      "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan.supp:exitcode=86"
      "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86")
elseif(CAPDESK_SANITIZE STREQUAL "thread")
  set(sanitize_flags -fsanitize=thread)
  set(CAPDESK_SANITIZER_ENVIRONMENT
      "TSAN_OPTIONS=halt_on_error=1:exitcode=86:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp")
elseif(NOT CAPDESK_SANITIZE STREQUAL "")
  message(FATAL_ERROR "CAPDESK_SANITIZE must be empty, 'address' or 'thread', not '${CAPDESK_SANITIZE}'")
endif()

if(NOT CAPDESK_SANITIZE STREQUAL "")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CAPDESK_SANITIZE is set up for clang: configure with -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  add_compile_options(${sanitize_flags} -fno-omit-frame-pointer)
  add_link_options(${sanitize_flags})
endif()
if(CAPDESK_FUZZ)
  # Coverage counters in every library, so libFuzzer sees the parsers' branches; only the
  # fuzz executables link libFuzzer's main (tests/fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
