#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/ctime.sh: the constant-time check (make ctime), one part per call.
#
#   tools/ctime.sh backend CC VARIANT FLAG...   tests/c/run_ctime.c built with CC for one
#                                               field backend (FLAG...: its defines and
#                                               sources), every check under valgrind, then
#                                               every negative control, which must be reported
#   tools/ctime.sh common CC                    the checks that do not involve the field
#                                               backend: AES, the hashes, modinv
#   tools/ctime.sh engine CC IFMA               the batch dispatch: scalar under valgrind,
#                                               and the IFMA engine natively when IFMA is
#                                               yes (the Makefile's HAVE_IFMA: this CPU has it)
#
# Environment: CTIME_FLAGS, the compiler arguments (the Makefile's, release optimization
# with debug information). Valgrind memcheck, with the secrets marked undefined
# (P256_CTIME_TEST), fails on every branch and memory address computed from a secret.
# A control is a deliberate leak: a clean run of it means the check cannot see that kind
# of leak, so it fails the part, and its report is printed so the log shows what was seen.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CTIME_FLAGS:=-O3 -gdwarf-4 -g1 -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST}"
bin=tests/c/bin
mkdir -p "$bin"
# shellcheck disable=SC2206 # CTIME_FLAGS is a list of arguments
flags=($CTIME_FLAGS)
vg=(valgrind -q --error-exitcode=1 --track-origins=yes)

# Valgrind's first line for each kind of leak.
report_branch="Conditional jump or move depends on uninitialised value"
report_index="Use of uninitialised value of size"

# control NAME LOG REPORT FUNCTION: LOG must hold REPORT with FUNCTION in its stack.
expect_report() {
    local name=$1 log=$2 report=$3 fn=$4
    if ! grep -A3 "$report" "$log" | grep -Eq "$fn"; then
        cat "$log"
        echo "$name went unreported (no \"$report\" in $fn): the check is broken"
        return 1
    fi
    echo "$name flagged (the check works):"
    grep -A2 "$report" "$log" | sed 's/^/    /' | head -n 3
}

case ${1:-} in
backend)
    cc=$2 v=$3; shift 3
    b=$bin/run_ctime-$v-$cc
    echo "ctime [$v, $cc]: $b"
    "$cc" "${flags[@]}" -Itests/c -o "$b" tests/c/run_ctime.c "$@"
    # Every check in one process (-l lists them in an order run_ctime accepts); a report
    # names the function and line that leaked.
    checks=$("$b" -l)
    echo "ctime [$v, $cc]: run_ctime -t" $checks
    # shellcheck disable=SC2086 # a list of check names
    "${vg[@]}" "$b" -t $checks
    # The controls. branch, index: a branch on a secret and a load at a secret index, each
    # reported inside its own function; madd52, gather: the same through the emulated
    # IFMA intrinsics the engine runs on here. field: the secret went through the
    # backend's multiplication (proves valgrind tracks it through MULX/ADCX/ADOX and
    # CMOV: otherwise a clean run of that variant would mean nothing); scalar_mul,
    # scalar_scan: through the product mod n and the table scan (the assembly ones in an
    # assembly variant); pubtable_index: a per-key table's row read at the secret digit
    # (ECDH over a peer's table, ctime_pubtable.c); batch_gen_index: the IFMA k*G's comb
    # read at a secret digit; batch_const_index: a table read at a secret digit of the
    # IFMA engine's constant-time k*q; group_map, group_mult, group_multi, group_modn: a
    # branch on the result of the map to the curve, k*P, a sum and an inverse mod n.
    for c in $("$b" -L); do
        log=$b-$c.log
        if "${vg[@]}" "$b" -c "$c" >"$log" 2>&1; then
            cat "$log"
            echo "ctime [$v, $cc]: control '$c' ran without a report: the check is broken"
            exit 1
        fi
        case $c in
            branch | madd52) r=$report_branch fn="canary_$c[.a-z0-9]* .canary_ctime\.c:" ;;
            index | gather) r=$report_index fn="canary_$c[.a-z0-9]* .canary_ctime\.c:" ;;
            field) r=$report_branch fn="canary_ctime_field\.c:" ;;
            pubtable_index) r=$report_index fn="ctime_pubtable\.c:" ;;
            batch_gen_index) r=$report_index fn="ctime_batch_gen\.c:" ;;
            batch_const_index) r=$report_index fn="ctime_batch_const\.c:" ;;
            group_*) r=$report_branch fn="ctime_group\.c:" ;;
            *) r=$report_branch fn="ctime_scalar\.c:" ;;
        esac
        expect_report "ctime [$v, $cc]: control '$c'" "$log" "$r" "$fn"
    done
    ;;
common)
    cc=$2
    for t in aes hash modinv; do
        b=$bin/ctime_$t-$cc
        echo "ctime [$cc]: $b"
        "$cc" "${flags[@]}" -o "$b" "tests/c/ctime_$t.c"
        "${vg[@]}" "$b"
    done
    ;;
engine)
    # Under valgrind (no AVX-512) the batch dispatch must choose the scalar engine, and
    # natively on a CPU with IFMA the IFMA one: the dispatch itself reads no secret, but
    # a wrong choice would leave the engine unchecked.
    cc=$2 ifma=${3:?tools/ctime.sh engine CC IFMA: IFMA is yes when this CPU has AVX-512 IFMA, else no} b=$bin/batch_engine_name
    case $ifma in yes | no) ;; *) echo "tools/ctime.sh engine: IFMA is yes or no, not '$ifma'"; exit 2 ;; esac
    "$cc" -O2 -std=c99 -Wall -Wextra -Werror -Icsrc -o "$b" tests/c/batch_engine_name.c
    e=$("${vg[@]}" "$b") || { echo "ctime: the batch dispatch failed under valgrind"; exit 1; }
    n=$("$b")
    test "$e" = scalar || { echo "ctime: under valgrind the batch engine is '$e', not scalar"; exit 1; }
    if test "$ifma" = yes && test "$n" != avx512-ifma; then
        echo "ctime: natively the batch engine is '$n' on a CPU with IFMA: the check is broken"
        exit 1
    fi
    echo "ctime: batch engine under valgrind: $e (natively: $n)"
    ;;
*)
    sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
