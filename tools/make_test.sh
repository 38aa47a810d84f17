#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/make_test.sh [--bg "PART..."] [--after "PART..."] PART...: the driver of `make test`.
#
# 1. tools/bootstrap.sh once for every part (installs the missing system tools as root
#    with apt; otherwise names the command and which parts cannot run).
# 2. Each PART is a make target, run in order with its output shown and kept in
#    build/test/PART.log. The --bg parts are a queue beside them: a second lane takes
#    them in order, and the first lane, once its own parts are done, takes what is left,
#    so that neither core idles while the other works (list the long ones first; their
#    logs are printed when all are done). The --bg parts use no .venv install, so any
#    two of them and any PART may run together. The --after parts run last, alone on
#    the machine (those that measure time). A part whose tools are missing is not run;
#    nor is one with no make target in this checkout.
# 3. A summary table: each part passed, FAILED or SKIPPED with the reason and its time.
#    Lines "SKIP ... this CPU lacks ..." in a part's log (a backend this CPU cannot
#    run) are listed beside it; they are allowed.
# Exit status: 1 if a part failed, or if P256_STRICT=1 and a part was skipped (missing
# tool or target); else 0.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
bg= after=
while [ $# -ge 2 ]; do
    case $1 in
        --bg) bg=$2; shift 2 ;;
        --after) after=$2; shift 2 ;;
        *) break ;;
    esac
done
fg=("$@")
logs=build/test
rm -rf "$logs" && mkdir -p "$logs"
t_start=$(date +%s)

elapsed() { local s=$(( $(date +%s) - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

echo "==== make test: tools/bootstrap.sh $bg ${fg[*]} $after"
# shellcheck disable=SC2086 # bg and after are lists of parts
tools/bootstrap.sh --report "$logs/bootstrap" $bg "${fg[@]}" $after
install_cmd=$(awk -F'\t' '$1 == "*" {print $2}' "$logs/bootstrap")
# For the background lane: the venv exists before two parts could race to create it.
$MAKE --no-print-directory venv >/dev/null 2>&1 || true

# result PART STATUS TIME NOTE: one line per part in build/test/PART.result.
result() { printf '%s\t%s\t%s\n' "$2" "$3" "$4" > "$logs/$1.result"; }

has_target() {
    local rc=0
    $MAKE -q "$1" >/dev/null 2>"$logs/.q-$1" || rc=$?
    grep -q "No rule to make target '$1'" "$logs/.q-$1" && [ $rc = 2 ] && rc=none
    rm -f "$logs/.q-$1"
    [ $rc != none ]
}

# run_part PART show: run one part (show: tee its output to the terminal).
run_part() {
    local p=$1 show=$2 log=$logs/$1.log t0 rc why cpu
    why=$(awk -F'\t' -v p="$p" '$1 == p {print $2}' "$logs/bootstrap")
    if [ -n "$why" ]; then result "$p" SKIPPED-tool - "$why"; return; fi
    if ! has_target "$p"; then result "$p" SKIPPED-target - "no make target '$p' in this checkout"; return; fi
    t0=$(date +%s)
    if [ "$show" = show ]; then
        echo "==== make $p"
        $MAKE --no-print-directory "$p" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
    else
        rc=0
        $MAKE --no-print-directory "$p" > "$log" 2>&1 || rc=$?
    fi
    # What this CPU could not run, and pytest's count line, beside the result.
    cpu=$(grep -E 'SKIP.*CPU lacks' "$log" | sed -E 's/^[^:]*: *//' | sort -u)
    why=$(grep -E '^=* ?([0-9]+ [a-z]+|no tests ran).* in [0-9.]+s' "$log" | tail -n 1 | tr -d '=' | sed 's/^ *//')
    if [ -n "$cpu" ]; then
        why="${why:+$why; }CPU skip: $(head -n 1 <<< "$cpu")$([ "$(wc -l <<< "$cpu")" -gt 1 ] && echo " (+$(( $(wc -l <<< "$cpu") - 1 )) more in the log)")"
    fi
    if [ "$rc" = 0 ]; then result "$p" passed "$(elapsed "$t0")" "$why"
    else result "$p" FAILED "$(elapsed "$t0")" "exit status $rc${why:+; $why} (log: $log)"; fi
    [ "$show" = show ] && echo "==== make $p: exit status $rc, $(elapsed "$t0")"
    return 0
}

# take_queue LANE: run the --bg parts no lane has claimed yet (mkdir is the atomic claim).
take_queue() {
    local p
    for p in $bg; do
        mkdir "$logs/.claimed-$p" 2>/dev/null || continue
        echo "$1" > "$logs/.claimed-$p/lane"
        run_part "$p" quiet
    done
}

bg_pid=
if [ -n "$bg" ]; then
    echo "==== make test: in the background (logs at the end): $bg"
    set -m  # the lane in its own process group, so an interrupt can stop all of it
    take_queue 2 &
    bg_pid=$!
    set +m
    trap 'kill -TERM -- -$bg_pid 2>/dev/null; exit 130' INT TERM
fi
for p in "${fg[@]}"; do run_part "$p" show; done
if [ -n "$bg_pid" ]; then
    echo "==== make test: the first lane takes the background parts not yet started"
    take_queue 1
    echo "==== make test: waiting for the background parts ($bg)"
    wait "$bg_pid"
    for p in $bg; do
        [ -e "$logs/$p.log" ] || continue
        echo "==== make $p (ran in the background, lane $(cat "$logs/.claimed-$p/lane"))"
        cat "$logs/$p.log"
    done
fi
for p in $after; do run_part "$p" show; done

# The summary, kept in build/test/summary too.
summary() {
failed=0 skipped=0 passed=0 cpu=0
echo
echo "==== make test: summary (logs in $logs)"
printf '%-20s %-8s %7s  %s\n' part result time note
for p in "${fg[@]}" $bg $after; do
    IFS=$'\t' read -r status t note < "$logs/$p.result"
    case $status in
        passed) passed=$((passed + 1)); shown=passed
                case $note in *"CPU skip"*) cpu=$((cpu + 1)) ;; esac ;;
        FAILED) failed=$((failed + 1)); shown=FAILED ;;
        SKIPPED-*) skipped=$((skipped + 1)); shown=SKIPPED ;;
    esac
    printf '%-20s %-8s %7s  %s\n' "$p" "$shown" "$t" "$note"
done
[ -z "$install_cmd" ] || echo "to install the missing tools: $install_cmd"
line="$passed passed, $failed FAILED, $skipped SKIPPED"
[ "$cpu" = 0 ] || line="$line ($cpu with runs this CPU cannot do: allowed)"
line="$line, in $(elapsed "$t_start")"
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
[ "$failed" = 0 ] && { [ "$skipped" = 0 ] || [ "${P256_STRICT:-}" != 1 ]; }
}
summary > "$logs/summary"
rc=$?
cat "$logs/summary"
exit $rc
