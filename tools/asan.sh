#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/asan.sh PYTEST_ARG...: make asan, once the sanitized extension is in ASAN_VENV:
# 1. the extension carries the ASan and UBSan hooks; 2. the C harnesses under the
# sanitizers (meson test in ASAN_BUILD, tests/c/meson.build's -Dtests=asan); 3. the
# negative controls of tests/c/asan_canary.c (a read one byte past a Python bytes object,
# an oversized shift), loaded into the same sanitized interpreter, must each be reported;
# 4. pytest PYTEST_ARG... with the ASan runtime preloaded: any report fails, as does
# pytest's own status. Environment (the Makefile's): ASAN_RT (the runtime to preload),
# ASAN_VENV, ASAN_LOGS (where every report goes), MESON, ASAN_BUILD.
# No pipefail: a `grep -q` that stops reading at its match would fail the pipeline
# with its writer's SIGPIPE.
set -u
cd "$(dirname "$0")/.."
: "${ASAN_RT:?}" "${ASAN_VENV:?}" "${ASAN_LOGS:?}" "${MESON:?}" "${ASAN_BUILD:?}"
py=$ASAN_VENV/bin/python
logs=$PWD/$ASAN_LOGS

test -f "$ASAN_RT" || { echo "asan: no ASan runtime ($ASAN_RT)"; exit 1; }
so=$(find "$ASAN_VENV" -name '_core*.so' | head -n 1)
[ -n "$so" ] || { echo "asan: no extension in $ASAN_VENV"; exit 1; }
undefined=$(nm -D --undefined-only "$so") || exit 1
for sym in __asan_report_load __ubsan_handle_; do
    grep -q "$sym" <<< "$undefined" || { echo "asan: $so has no $sym hooks: not instrumented"; exit 1; }
done
echo "asan: $so is instrumented (ASan + UBSan)"
rm -rf "$logs" && mkdir -p "$logs"

$MESON test -C "$ASAN_BUILD" --verbose || exit 1

# sanitized CMD...: CMD with the ASan runtime preloaded. PYTHONMALLOC=malloc sends Python's
# objects through ASan's allocator too; detect_leaks=0 silences the interpreter's own
# exit-time leaks.
sanitized() {
    LD_PRELOAD=$ASAN_RT PYTHONMALLOC=malloc \
        ASAN_OPTIONS=detect_leaks=0:log_path=$logs/asan \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan "$@"
}

$MESON compile -C "$ASAN_BUILD" asan_canary || exit 1
for m in heap shift; do
    case $m in
        heap) expect="ERROR: AddressSanitizer: heap-buffer-overflow" ;;
        shift) expect="runtime error: shift exponent" ;;
    esac
    if sanitized "$py" -c 'import ctypes, sys, p256; assert p256.PrivateKey.generate()
lib = ctypes.CDLL(sys.argv[1]); b = bytes(range(32))
lib.p256_asan_canary_heap(b, 33) if sys.argv[2] == "heap" else lib.p256_asan_canary_shift(40)' \
            "$ASAN_BUILD/tests/c/asan_canary.so" "$m" 2>/dev/null; then
        echo "asan: canary '$m' ran without failing: the sanitizer setup is broken"
        exit 1
    fi
    if ! cat "$logs"/* 2>/dev/null | grep -q "$expect"; then
        cat "$logs"/* 2>/dev/null
        echo "asan: canary '$m' failed without the expected report: the setup is broken"
        exit 1
    fi
    echo "asan: canary '$m' reported (the check works):"
    cat "$logs"/* | grep -m 3 -E "ERROR: AddressSanitizer|runtime error|#0 " | sed 's/^/    /'
    rm -f "$logs"/*
done

echo "asan: pytest with the sanitized extension"
sanitized "$py" -m pytest -q -p no:cacheprovider "$@"
rc=$?
if ls "$logs"/* >/dev/null 2>&1; then
    cat "$logs"/*
    echo "asan: FAILED: sanitizer reports above"
    exit 1
fi
[ "$rc" = 0 ] || { echo "asan: FAILED: pytest exit status $rc"; exit 1; }
echo "asan: no sanitizer report"
