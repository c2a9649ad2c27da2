# One CTest run of a fuzzer: a fresh copy of its seed corpus, SECONDS of fuzzing, then the
# verdict. libFuzzer exits non-zero on a crash, a sanitizer report or a failed FUZZ_CHECK,
# and leaves the input that did it in WORK/artifacts/ to replay with `FUZZER FILE`.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/artifacts)
file(COPY ${SEEDS}/ DESTINATION ${WORK}/corpus)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
          -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(GLOB found ${WORK}/artifacts/*)
  message(FATAL_ERROR "${FUZZER} failed (${result}); reproduce with: ${FUZZER} ${found}")
endif()
