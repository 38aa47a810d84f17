#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/ctime.sh: one test of make ctime; tests/c/meson.build builds the binaries (with
# P256_CTIME_TEST: secrets marked undefined) and runs this once per binary (suite ctime).
#
#   tools/ctime.sh backend RUN_CTIME   run_ctime (one field backend): every check under
#                                      valgrind, then every negative control, which must
#                                      be reported
#   tools/ctime.sh run BINARY          a check that does not involve the field backend
#                                      (AES, the hashes, modinv) under valgrind
#   tools/ctime.sh engine BINARY IFMA  the batch dispatch: scalar under valgrind, and the
#                                      IFMA engine natively when IFMA is yes (this CPU has it)
#
# Valgrind memcheck fails on every branch and memory address computed from a secret. A
# control is a deliberate leak: a clean run of it means the check cannot see that kind of
# leak, so it fails the test, and its report is printed so the log shows what was seen.
set -euo pipefail
vg=(valgrind -q --error-exitcode=1 --track-origins=yes)
b=${2:?usage: tools/ctime.sh backend|run|engine BINARY ...}

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

case $1 in
backend)
    # Every check in one process (-l lists them in an order run_ctime accepts); a report
    # names the function and line that leaked.
    checks=$("$b" -l)
    echo "ctime [$b]: run_ctime -t" $checks
    # shellcheck disable=SC2086 # a list of check names
    "${vg[@]}" "$b" -t $checks
    # The controls (run_ctime.c's header says what each leaks), each reported inside its
    # own function: field, scalar_mul, scalar_scan prove valgrind tracks a secret through
    # the backend's multiplication, the product mod n and the table scan (MULX/ADCX/ADOX,
    # CMOV: otherwise a clean run of an assembly variant would mean nothing).
    for c in $("$b" -L); do
        log=$b-$c.log
        if "${vg[@]}" "$b" -c "$c" >"$log" 2>&1; then
            cat "$log"
            echo "ctime [$b]: control '$c' ran without a report: the check is broken"
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
        expect_report "ctime [$b]: control '$c'" "$log" "$r" "$fn"
    done
    ;;
run)
    "${vg[@]}" "$b"
    ;;
engine)
    # Under valgrind (no AVX-512) the batch dispatch must choose the scalar engine, and
    # natively on a CPU with IFMA the IFMA one: the dispatch itself reads no secret, but
    # a wrong choice would leave the engine unchecked.
    ifma=${3:?tools/ctime.sh engine BINARY IFMA: IFMA is yes when this CPU has AVX-512 IFMA, else no}
    e=$("${vg[@]}" "$b") || { echo "ctime: the batch dispatch failed under valgrind"; exit 1; }
    n=$("$b")
    test "$e" = scalar || { echo "ctime: under valgrind the batch engine is '$e', not scalar"; exit 1; }
    if test "$ifma" = yes && test "$n" != avx512-ifma; then
        echo "ctime: natively the batch engine is '$n' on a CPU with IFMA: the check is broken"
        exit 1
    fi
    echo "ctime: batch engine under valgrind: $e (natively: $n)"
    ;;
*) echo "usage: tools/ctime.sh backend|run|engine BINARY [IFMA]" >&2; exit 2 ;;
esac
