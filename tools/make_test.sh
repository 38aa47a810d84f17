#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/make_test.sh: the steps of make test and make ci, whose parts are make targets;
# the Makefile schedules them (make -j2; docs/development.md, make test).
#   start PART...    tools/bootstrap.sh once for all parts, and the venvs they share
#   run PART [show]  make PART, its output in build/test/PART.log (show: and on the
#                    terminal), its result in PART.result; skipped if its tools or target
#                    are missing
#   summary PART...  each part passed, FAILED or SKIPPED with the reason and its time, and
#                    the "SKIP ... this CPU lacks ..." lines of its log (allowed); status 1
#                    if a part failed, or if P256_STRICT=1 and a part was skipped
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
# A part's make runs as from a shell: make -j2 schedules the parts, not what runs in them.
MAKEFLAGS=$(sed -E 's/(^| )-j[0-9]*|--jobserver-(auth|fds)=[^ ]*//g' <<< "${MAKEFLAGS:-}") && export MAKEFLAGS
logs=build/test
mode=${1:?usage: tools/make_test.sh start|run|summary PART...}
shift

elapsed() { local s=$(( $(date +%s) - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
result() { printf '%s\t%s\t%s\n' "$2" "$3" "$4" > "$logs/$1.result"; }

case $mode in
start)
    rm -rf "$logs" && mkdir -p "$logs" && date +%s > "$logs/.start"
    echo "==== make test: tools/bootstrap.sh $*"
    tools/bootstrap.sh --report "$logs/bootstrap" "$@"
    # What the parts share, made before two of them could race to make it.
    $MAKE --no-print-directory venv >/dev/null 2>&1 || true
    ;;
run)
    p=$1 log=$logs/$1.log
    why=$(awk -F'\t' -v p="$p" '$1 == p {print $2}' "$logs/bootstrap")
    if [ -n "$why" ]; then result "$p" SKIPPED-tool - "$why"; exit 0; fi
    rc=0
    $MAKE -q "$p" >/dev/null 2>"$log" || rc=$?
    if [ $rc = 2 ] && grep -q "No rule to make target '$p'" "$log"; then
        result "$p" SKIPPED-target - "no make target '$p' in this checkout"; exit 0
    fi
    t0=$(date +%s)
    if [ "${2:-}" = show ]; then
        echo "==== make $p"
        $MAKE --no-print-directory "$p" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        echo "==== make $p: exit status $rc, $(elapsed "$t0")"
    else
        rc=0
        $MAKE --no-print-directory "$p" > "$log" 2>&1 || rc=$?
    fi
    # What this CPU could not run, and pytest's count line, beside the result.
    cpu=$(grep -E 'SKIP.*CPU lacks' "$log" | sed -E 's/^[^:]*: *//' | sort -u)
    why=$(grep -E '^=* ?([0-9]+ [a-z]+|no tests ran).* in [0-9.]+s' "$log" | tail -n 1 | tr -d '=' | sed 's/^ *//')
    if [ -n "$cpu" ]; then
        n=$(wc -l <<< "$cpu")
        why="${why:+$why; }CPU skip: $(head -n 1 <<< "$cpu")$([ "$n" -gt 1 ] && echo " (+$((n - 1)) more in the log)")"
    fi
    if [ "$rc" = 0 ]; then result "$p" passed "$(elapsed "$t0")" "$why"
    else result "$p" FAILED "$(elapsed "$t0")" "exit status $rc${why:+; $why} (log: $log)"; fi
    ;;
summary)
    {
    failed=0 skipped=0 passed=0 cpu=0
    echo
    echo "==== make test: summary (logs in $logs)"
    printf '%-20s %-8s %7s  %s\n' part result time note
    for p in "$@"; do
        IFS=$'\t' read -r status t note < "$logs/$p.result"
        case $status in
            passed) passed=$((passed + 1)); shown=passed
                    case $note in *"CPU skip"*) cpu=$((cpu + 1)) ;; esac ;;
            FAILED) failed=$((failed + 1)); shown=FAILED ;;
            SKIPPED-*) skipped=$((skipped + 1)); shown=SKIPPED ;;
        esac
        printf '%-20s %-8s %7s  %s\n' "$p" "$shown" "$t" "$note"
    done
    install_cmd=$(awk -F'\t' '$1 == "*" {print $2}' "$logs/bootstrap")
    [ -z "$install_cmd" ] || echo "to install the missing tools: $install_cmd"
    line="$passed passed, $failed FAILED, $skipped SKIPPED"
    [ "$cpu" = 0 ] || line="$line ($cpu with runs this CPU cannot do: allowed)"
    line="$line, in $(elapsed "$(cat "$logs/.start")")"
    if [ "$failed" != 0 ]; then
        echo "make test: FAILED: $line"
    elif [ "$skipped" != 0 ] && [ "${P256_STRICT:-}" = 1 ]; then
        echo "make test: FAILED: $line; P256_STRICT=1 allows no skipped part"
    elif [ "$skipped" != 0 ]; then
        echo "make test: passed with parts SKIPPED: $line (P256_STRICT=1 would fail)"
    else
        echo "make test: passed: $line"
    fi
    # The parts as a plain count, the closing line a CI reader takes for the run's tally.
    echo "parts: $passed passed, $failed failed, $skipped skipped"
    } | tee "$logs/summary"
    grep -q '^make test: passed' "$logs/summary"
    ;;
esac
