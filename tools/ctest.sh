#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/ctest.sh: make ctest's builds and runs, one call per harness build (the Makefile
# chooses which harness is built for which compiler and field backend; its comment above
# the ctest target says why).
#
#   tools/ctest.sh backends VARIANT...      every variant of csrc/variants.txt has its
#                                           entry in csrc/backend.c's p256_backends
#   tools/ctest.sh harness CC HARNESS FLAG... -- ARG...
#                                           tests/c/HARNESS built with CC, its own FLAG...
#                                           and the variant's ARG... (defines, sources),
#                                           then run where this CPU can run it
#   tools/ctest.sh emulated CC              the IFMA engine's harness on the portable
#                                           emulation of its intrinsics
#
# Environment (the Makefile's): CTEST_FLAGS; CORE_CC; HAVE_IFMA (yes: this CPU has AVX-512
# IFMA); for `harness`, VARIANT (its name), VARIANT_ASM (its assembly sources; empty for
# C) and VARIANT_LACKS (the CPU flags of the variant this CPU lacks; empty: it runs it);
# OTHER_CC_ASM_ITERS and EMULATED_IFMA_ITERS, the share of the random cases of a run whose
# random cases another run has in full (tools/test_share.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/test_share.sh
. tools/test_share.sh
bin=tests/c/bin
mkdir -p "$bin"
# shellcheck disable=SC2206 # CTEST_FLAGS is a list of arguments
flags=(${CTEST_FLAGS:-})
# with_core: the settings a build and run need
with_core() {
    : "${CTEST_FLAGS:?}" "${CORE_CC:?}" "${HAVE_IFMA=}"
}

mode=${1:?usage: tools/ctest.sh backends|harness|emulated ...}
shift
case $mode in
backends)
    for v in "$@"; do
        grep -q "&p256_api_$v\b" csrc/backend.c || {
            echo "ctest: csrc/variants.txt lists $v, csrc/backend.c's p256_backends has no &p256_api_$v"
            exit 1
        }
    done
    ;;
harness)
    with_core
    cc=$1 t=$2
    shift 2
    own=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do own+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    : "${VARIANT:?}" "${VARIANT_ASM=}" "${VARIANT_LACKS=}"
    b=$bin/$(basename "$t" .c)-$cc-$VARIANT
    label="ctest [$cc, $VARIANT]"
    echo "$label: $b ${own[*]:-}"
    "$cc" "${flags[@]}" ${own[@]+"${own[@]}"} -Itests/c -o "$b" "$t" "$@"
    if [ "$t" = tests/c/test_batch_ifma.c ] && [ "$HAVE_IFMA" != yes ]; then
        echo "$label: SKIP native test_batch_ifma run: this CPU lacks AVX-512 IFMA (built; the emulated build runs)"
    elif [ -n "$VARIANT_LACKS" ] && [ "$t" != tests/c/test_backend.c ]; then
        # test_backend.c checks CPUID itself and prints its own SKIP line.
        echo "$label: SKIP $VARIANT run: this CPU lacks $VARIANT_LACKS"
    elif [ -n "$VARIANT_ASM" ] && [ "$cc" != "$CORE_CC" ] && [ "$t" != tests/c/test_batch_ifma.c ]; then
        # The assembly is the same assembled bytes under every compiler, and the C around
        # it the portable variant's, which every compiler runs in full. Not the IFMA
        # engine's harness: its subject is C that each compiler compiles anew.
        share_iters "${OTHER_CC_ASM_ITERS:?}" "$label" "the assembly's random cases ran in full with $CORE_CC"
        P256_TEST_ITERS=$ITERS "$b"
    else
        "$b"
    fi
    ;;
emulated)
    with_core
    cc=$1
    b=$bin/test_batch_ifma-emulated-$cc
    label="ctest [$cc, portable, emulated IFMA]"
    echo "$label: $b"
    "$cc" "${flags[@]}" -DP256_IFMA_EMULATE -o "$b" tests/c/test_batch_ifma.c
    if [ "$HAVE_IFMA" = yes ]; then
        share_iters "${EMULATED_IFMA_ITERS:?}" "$label" "the native run had the random cases in full"
        P256_TEST_ITERS=$ITERS "$b"
    else
        "$b"
    fi
    ;;
*)
    echo "tools/ctest.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
