#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/timing.sh: make timing and make timing-long, the statistical timing test
# (tests/c/timing_core.c, dudect-style: fixed-vs-random secrets, Welch's t on cropped cycle
# counts), built like the extension (CC, -O3); the Makefile's comment above the targets
# says what each runs.
#
#   tools/timing.sh cpu                          the CPU's name, family and model
#   tools/timing.sh backend CC VARIANT FLAG... -- ARG...
#                                                one field backend (FLAG...: the build's
#                                                own defines; ARG...: the variant's defines
#                                                and sources): TIMING_N measurements per
#                                                test of TIMING_TARGETS (empty: all)
#   tools/timing.sh plants CC VARIANT -- ARG...  the negative controls on the product mod n:
#                                                a planted branch on a secret bit and a
#                                                planted load at a secret index must each be
#                                                flagged for every class of inputs
#   tools/timing.sh long CC SECONDS VARIANT -- ARG...
#                                                one backend for SECONDS (make timing-long)
#
# Environment: TIMING_FLAGS, TIMING_N, TIMING_TARGETS (the Makefile's).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TIMING_FLAGS:=-O3 -std=c99 -Wall -Wextra -Werror -Icsrc}" "${TIMING_N:=20000}" "${TIMING_TARGETS=}"
# shellcheck disable=SC2206 # lists of words
flags=($TIMING_FLAGS) targets=($TIMING_TARGETS)
bin=tests/c/bin
mkdir -p "$bin"

# split_args FLAG... -- ARG...: own=(FLAG...), rest=(ARG...)
split_args() {
    own=() rest=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do own+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    rest=("$@")
}

mode=${1:?usage: tools/timing.sh cpu|backend|plants|long ...}
shift
case $mode in
cpu)
    awk -F': *' '/^model name/ && !m {m = $2} /^cpu family/ && !f {f = $2}
                 /^model\t/ && !o {o = $2} END {print m " (family " f " model " o ")"}' /proc/cpuinfo 2>/dev/null
    ;;
backend)
    cc=$1 v=$2
    shift 2
    split_args "$@"
    b=$bin/timing_core-$v
    "$cc" "${flags[@]}" ${own[@]+"${own[@]}"} -o "$b" tests/c/timing_core.c ${rest[@]+"${rest[@]}"} -lm
    echo "timing [$v]: $b -n $TIMING_N ${targets[*]:-}"
    "$b" -n "$TIMING_N" ${targets[@]+"${targets[@]}"}
    ;;
plants)
    cc=$1 v=$2
    shift 2
    split_args "$@"
    for p in 1 2; do
        bp=$bin/timing_core-plant$p-$v
        "$cc" "${flags[@]}" -DP256_NO_IFMA -DTIMING_PLANT=$p -o "$bp" tests/c/timing_core.c ${rest[@]+"${rest[@]}"} -lm
        if "$bp" -n "$TIMING_N" modn > "$bp.log" 2>&1; then
            cat "$bp.log"
            echo "timing [$v]: planted leak $p went unflagged: the harness is broken"
            exit 1
        fi
        if [ "$(grep -c '^LEAK modn d=' "$bp.log")" != 3 ]; then
            cat "$bp.log"
            echo "timing [$v]: planted leak $p not flagged for every class: the harness is broken"
            exit 1
        fi
        what=$([ $p = 1 ] && echo 'branch on a secret bit' || echo 'load at a secret index')
        echo "timing [$v]: planted leak $p ($what) flagged (negative control):"
        grep -E '^modn ' "$bp.log" | sed 's/^/    /'
    done
    ;;
long)
    cc=$1 seconds=$2 v=$3
    shift 3
    split_args "$@"
    b=$bin/timing_core-$v
    "$cc" "${flags[@]}" -o "$b" tests/c/timing_core.c ${rest[@]+"${rest[@]}"} -lm
    "$b" -s "$seconds" ${targets[@]+"${targets[@]}"}
    ;;
*)
    echo "tools/timing.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
