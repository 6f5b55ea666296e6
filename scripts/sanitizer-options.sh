# Sourced by scripts/asan.sh and scripts/tsan.sh: the sanitizer run-time options the suites run
# with. Every report is fatal (halt_on_error; the builds also use -fno-sanitize-recover=all), leak
# detection stays on, and the suppression files in tests/sanitizers/ (each entry says why) are
# the only exceptions. Values already in the environment come last, so they win.
_supp="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/sanitizers"
# allocator_may_return_null: an allocation too large to satisfy throws std::bad_alloc, as in a
# normal build, instead of an ASan report (the importer's and the runtime's size limits are
# tested with such requests).
# intercept_tls_get_addr=0: GCC 12's LeakSanitizer misreads glibc 2.36's dynamic-TLS vector of
# OpenMP worker threads (oneDNN's libgomp, loaded with the plugin) and dies at exit with "Tracer
# caught signal 11 ... DTLS 8 at 0x000300000306"; without the interception the dynamic TLS of
# dlopen()ed libraries is not scanned as a root, which can only add leak reports, never hide one.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:allocator_may_return_null=1:intercept_tls_get_addr=0:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$_supp/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$_supp/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
unset _supp
