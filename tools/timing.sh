#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/timing.sh: one test of make timing or make timing-long, the statistical timing test
# (tests/c/timing_core.c, dudect-style: fixed-vs-random secrets, Welch's t on cropped cycle
# counts); tests/c/meson.build builds the binaries and runs this once per binary.
#
#   tools/timing.sh cpu              the CPU's name, family and model
#   tools/timing.sh backend BINARY   one field backend: TIMING_N measurements per test of
#                                    TIMING_TARGETS (empty: all)
#   tools/timing.sh plant BINARY P   a negative control on the product mod n (P 1: a planted
#                                    branch on a secret bit, 2: a load at a secret index):
#                                    it must be flagged for every class of inputs
#   tools/timing.sh long BINARY K    one of K backends for TIMING_SECONDS / K (make timing-long)
set -euo pipefail
: "${TIMING_N:=20000}" "${TIMING_SECONDS:=600}" "${TIMING_TARGETS=}"
# shellcheck disable=SC2206 # a list of words
targets=($TIMING_TARGETS)

case ${1:-} in
cpu)
    awk -F': *' '/^model name/ && !m {m = $2} /^cpu family/ && !f {f = $2}
                 /^model\t/ && !o {o = $2} END {print m " (family " f " model " o ")"}' /proc/cpuinfo 2>/dev/null
    ;;
backend)
    echo "timing: $2 -n $TIMING_N ${targets[*]:-}"
    "$2" -n "$TIMING_N" ${targets[@]+"${targets[@]}"}
    ;;
plant)
    b=$2 p=$3
    if "$b" -n "$TIMING_N" modn > "$b.log" 2>&1; then
        cat "$b.log"
        echo "timing: planted leak $p went unflagged: the harness is broken"
        exit 1
    fi
    if [ "$(grep -c '^LEAK modn d=' "$b.log")" != 3 ]; then
        cat "$b.log"
        echo "timing: planted leak $p not flagged for every class: the harness is broken"
        exit 1
    fi
    what=$([ "$p" = 1 ] && echo 'branch on a secret bit' || echo 'load at a secret index')
    echo "timing: planted leak $p ($what) flagged (negative control):"
    grep -E '^modn ' "$b.log" | sed 's/^/    /'
    ;;
long)
    "$2" -s $((TIMING_SECONDS / $3)) ${targets[@]+"${targets[@]}"}
    ;;
*) echo "usage: tools/timing.sh cpu|backend|plant|long [BINARY] [P|K]" >&2; exit 2 ;;
esac
