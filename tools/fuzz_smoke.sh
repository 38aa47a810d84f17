#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/fuzz_smoke.sh: make fuzz-smoke, atheris over the public Python API (docs/fuzzing.md
# says what and why). Settings, the Makefile's: VPY (the venv's python, with the fuzz
# extra); FUZZ_DIR (seeds, work corpora, logs, crashes, plants); FUZZ_TARGETS, each for
# FUZZ_SECONDS with FUZZ_OPTIONS; FUZZ_PLANTS, the negative controls (plant:target), each
# to be found from one valid input within FUZZ_PLANT_TRIES campaigns of FUZZ_PLANT_SECONDS
# with FUZZ_PLANT_OPTIONS too.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${VPY:?}" "${FUZZ_DIR:?}" "${FUZZ_TARGETS:?}" "${FUZZ_SECONDS:?}" "${FUZZ_PLANTS:?}"
: "${FUZZ_PLANT_TRIES:?}" "${FUZZ_PLANT_SECONDS:?}"
# shellcheck disable=SC2206 # lists of libFuzzer options
options=(${FUZZ_OPTIONS:-}) plant_options=(${FUZZ_PLANT_OPTIONS:-})
d=$FUZZ_DIR

rm -rf "$d/seeds" "$d/logs" "$d/plants"
mkdir -p "$d/logs" "$d/crashes" "$d/plants"
"$VPY" tools/gen_py_fuzz_corpus.py "$d/seeds" || exit 1

# The campaigns: a finding fails the part after every target has run.
failed=
for t in $FUZZ_TARGETS; do
    log=$d/logs/$t.log
    mkdir -p "$d/work/$t"
    if "$VPY" tests/fuzz/run.py "$t" -max_total_time="$FUZZ_SECONDS" "${options[@]}" \
            -artifact_prefix="$d/crashes/$t-" "$d/work/$t" "$d/seeds/$t" > "$log" 2>&1; then
        echo "fuzz-smoke: $t: $(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#') inputs," \
            "$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1), corpus $(ls "$d/work/$t" | wc -l)" \
            "+ $(ls "$d/seeds/$t" | wc -l) seeds, no finding"
    else
        grep -v -E '^(#[0-9]+|INFO:|WARNING:)' "$log" | head -n 60
        echo "fuzz-smoke: $t: FINDING; reproducer: $(ls -t "$d/crashes/$t-"* 2>/dev/null | head -n 1)"
        failed="$failed $t"
    fi
done
[ -z "$failed" ] || { echo "fuzz-smoke: FAILED:$failed (logs in $d/logs)"; exit 1; }

# The negative controls.
for pt in $FUZZ_PLANTS; do
    p=${pt%%:*} t=${pt##*:}
    log=$d/plants/$p.log
    found=
    for try in $(seq "$FUZZ_PLANT_TRIES"); do
        rm -rf "$d/plants/$p" && mkdir -p "$d/plants/$p"
        if ! P256_FUZZ_PLANT=$p "$VPY" tests/fuzz/run.py "$t" -max_total_time="$FUZZ_PLANT_SECONDS" \
                "${options[@]}" "${plant_options[@]}" -artifact_prefix="$d/plants/$p-" "$d/plants/$p" \
                "$d/seeds/controls/$t" > "$log" 2>&1; then
            found=$try
            break
        fi
        echo "fuzz-smoke: negative control '$p': campaign $try of $FUZZ_PLANT_TRIES ended in $FUZZ_PLANT_SECONDS s without it"
    done
    if [ -z "$found" ]; then
        echo "fuzz-smoke: negative control '$p' was not found by $t in $FUZZ_PLANT_TRIES campaigns of $FUZZ_PLANT_SECONDS s: the harness is broken"
        exit 1
    fi
    if ! grep -q "negative control active: P256_FUZZ_PLANT=$p" "$log"; then
        grep -v -E '^(#[0-9]+|INFO:|WARNING:)' "$log" | head -n 40
        echo "fuzz-smoke: negative control '$p' failed without the expected finding: the setup is broken"
        exit 1
    fi
    n=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    echo "fuzz-smoke: negative control '$p' found by $t from one valid input (campaign $found; last status line before it: ${n:-none} inputs; the check works):"
    grep -m 1 -E '^Finding: ' "$log" | sed 's/^/    /'
done
exit 0
