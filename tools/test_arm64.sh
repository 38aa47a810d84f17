#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/test_arm64.sh: make test-arm64, the arm64 assembly (csrc/asm/*_aarch64.S) and
# PSTATE.DIT (csrc/cpu_aarch64.h) cross-compiled and run under qemu-aarch64 user-mode
# emulation (docs/backends.md says what each step checks): a static check of each
# assembled object; per compiler that can target aarch64 here (gcc, and clang with the gcc
# cross sysroot), the harnesses on the assembly and the portable backends and the DIT
# harness on a CPU model with and one without FEAT_DIT; the assembly's planted bugs with
# one compiler (tools/plants.py, the point and scalar kinds of tests/c/plants.txt).
#
#   tools/test_arm64.sh          all of the above (make test-arm64)
#   tools/test_arm64.sh bench    the C benchmarks under qemu, assembly and portable (make
#                                bench-arm64: the emulator's times and exact instruction
#                                counts, BENCH_ARM64_ROUNDS rounds)
# Settings, from the environment (make test-arm64 ARM64_CC=...): ARM64_CC, ARM64_CLANG
# (used only where it can build and link for the sysroot), ARM64_OBJDUMP, ARM64_READELF,
# ARM64_QEMU, ARM64_SYSROOT; ARM64_OTHER_CC_ITERS, the P256_TEST_SHARE of clang's
# assembly runs (gcc's run in full: the assembly is the same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ARM64_CC:=aarch64-linux-gnu-gcc}" "${ARM64_CLANG:=clang --target=aarch64-linux-gnu}"
: "${ARM64_OBJDUMP:=aarch64-linux-gnu-objdump}" "${ARM64_READELF:=aarch64-linux-gnu-readelf}"
: "${ARM64_QEMU:=qemu-aarch64}" "${ARM64_SYSROOT:=/usr/aarch64-linux-gnu}" "${ARM64_OTHER_CC_ITERS:=10}"
: "${PYTHON:=python3}" "${BENCH_ARM64_ROUNDS:=3}"
ARM64_BIN=tests/c/bin/arm64
flags=(-O2 -std=c99 -Wall -Wextra -Werror -Icsrc) qemu=("$ARM64_QEMU" -L "$ARM64_SYSROOT")
# The assembly variant's arguments: its line of csrc/variants.txt (defines, sources).
read -r _ _ _ _ defines sources < <(grep '^aarch64_asm ' csrc/variants.txt)
# shellcheck disable=SC2206 # comma-separated lists, split into words
asm=(${sources//,/ }) vflags=(${defines//,/ } ${sources//,/ })
# run_core's harnesses on the assembly backend under qemu (the portable one: test_core.c),
# and the IFMA engine's sections on its emulation.
core_harnesses="core api point_asm scalar_asm" ifma_sections="field points ecmult gen const"
# The instructions the .S may contain: on the Arm ARM's DIT list, loads/stores at fixed
# offsets, the bti landing pad, nops, ret, movk for constants, the AdvSIMD add, bit, cmeq,
# dup of the table scan, the signing of a spilled link register (docs/backends.md).
asm_ok="adc adcs add adds and autiasp bit bti cmeq cmp csel cset csetm dup extr ldp ldr
        lsl lsr mov movk mul nop orr paciasp ret sbc sbcs sbfx stp str sub subs umulh"
# The exported functions, each of which must be present (and so start with bti c).
asm_fns="p256_fe_mul_aarch64 p256_fe_sqr_aarch64 p256_jac_double_aarch64
         p256_jac_add_aarch64 p256_jac_add_aff_aarch64 p256_jac_add_aff_partial_aarch64
         p256_scalar_mont_mul_aarch64 p256_scalar_mont_sqr_aarch64
         p256_aff_lookup_16_aarch64 p256_aff_lookup_64_aarch64"
mkdir -p "$ARM64_BIN"
if [ "${1:-}" = bench ]; then
    for t in core field; do
        $ARM64_CC -O2 -std=c99 -Icsrc -o "$ARM64_BIN/bench_$t-asm" "tests/c/bench_$t.c" "${vflags[@]}"
        $ARM64_CC -O2 -std=c99 -Icsrc -o "$ARM64_BIN/bench_$t-portable" "tests/c/bench_$t.c"
    done
    exec "$PYTHON" tools/bench_arm64.py --run "${qemu[*]}" --rounds "$BENCH_ARM64_ROUNDS" --bin "$ARM64_BIN"
fi

# The static checks of each assembly file: only the listed instructions, a function
# symbol at least, bti c first in each function, and the BTI/PAC property note when
# assembled with -mbranch-protection.
allowed=()
for i in $asm_ok; do allowed+=(-e "$i"); done
for src in "${asm[@]}"; do
    o=$ARM64_BIN/$(basename "$src" .S)
    echo "test-arm64: static check of $src"
    $ARM64_CC -c -o "$o.o" "$src"
    $ARM64_OBJDUMP -d --no-show-raw-insn "$o.o" > "$o.dis"
    bad=$(awk -F'\t' '/^ +[0-9a-f]+:/{split($2, m, " "); print m[1]}' "$o.dis" \
          | sort -u | grep -v -x -F "${allowed[@]}" || true)
    if [ -n "$bad" ]; then echo "test-arm64: unexpected instructions in $src: $bad"; exit 1; fi
    fns=$(sed -n 's/^[0-9a-f]* <\([A-Za-z0-9_]*\)>:$/\1/p' "$o.dis")
    [ -n "$fns" ] || { echo "test-arm64: no function in $src"; exit 1; }
    for f in $fns; do
        grep -A1 "<$f>:" "$o.dis" | grep -q $'bti\tc' \
            || { echo "test-arm64: $f does not start with bti c"; exit 1; }
    done
    $ARM64_CC -mbranch-protection=standard -c -o "$o-bti.o" "$src"
    $ARM64_READELF -n "$o-bti.o" | grep -q 'AArch64 feature: BTI, PAC' \
        || { echo "test-arm64: no BTI/PAC property note in $src under -mbranch-protection"; exit 1; }
done
for f in $asm_fns; do
    found=
    for src in "${asm[@]}"; do
        grep -q "<$f>:" "$ARM64_BIN/$(basename "$src" .S).dis" && found=1
    done
    [ -n "$found" ] || { echo "test-arm64: $f is in none of ${asm[*]}"; exit 1; }
done

# run LOG ARG...: ARG... under qemu, its output in LOG; the harness's count lines shown.
run() {
    local log=$1.log
    shift
    "${qemu[@]}" "$@" > "$log" 2>&1 || { cat "$log"; echo "test-arm64: FAILED: $*"; exit 1; }
    grep -E 'checks, [0-9]+ failures|passed, [0-9]+ failed|: ok$' "$log" | sed 's/^/    /' || tail -n 1 "$log"
}

ccs=gcc
# shellcheck disable=SC2086 # ARM64_CLANG is a command with its arguments
if echo 'int main(void){return 0;}' | $ARM64_CLANG -x c -o "$ARM64_BIN/clang-probe" - >/dev/null 2>&1 \
   && "${qemu[@]}" "$ARM64_BIN/clang-probe"; then
    ccs="gcc clang"
else
    echo "test-arm64: $ARM64_CLANG cannot build for the cross sysroot here: gcc only"
fi
for tag in $ccs; do
    if [ "$tag" = gcc ]; then cc=$ARM64_CC; else cc=$ARM64_CLANG; fi
    b=$ARM64_BIN/$tag
    echo "test-arm64 [$cc]: build"
    $cc "${flags[@]}" -o "$b-backend" tests/c/test_backend.c "${vflags[@]}"
    $cc "${flags[@]}" -o "$b-dit" tests/c/arm64_dit.c "${vflags[@]}"
    $cc "${flags[@]}" -Itests/c -o "$b-run-core-asm" tests/c/run_core.c "${vflags[@]}"
    $cc "${flags[@]}" -o "$b-core-portable" tests/c/test_core.c
    $cc "${flags[@]}" -o "$b-ecmult-asm" tests/c/test_ecmult.c "${vflags[@]}"
    for t in test_hash test_hash_portable test_modinv test_ifma_emu; do
        $cc "${flags[@]}" -o "$b-$t" "tests/c/$t.c"
    done
    # The IFMA engine ships only for x86-64: its emulation's run here shows the
    # emulation portable, and one compiler does that (ctest runs it with every one).
    # ifma_sections leaves out the batch verification's section: C over the same
    # emulated intrinsics as the others, and most of the harness's time under qemu.
    if [ "$tag" = gcc ]; then
        $cc "${flags[@]}" -DP256_IFMA_EMULATE -o "$b-batch-ifma-emulated" tests/c/test_batch_ifma.c "${vflags[@]}"
    fi
    # share: the assembly's random cases run in full once, with gcc (harness.h, P256_TEST_SHARE)
    share=
    [ "$tag" = gcc ] || share=$ARM64_OTHER_CC_ITERS
    echo "test-arm64 [$cc]: run under ${qemu[0]}"
    P256_TEST_SHARE=$share run "$b-backend" "$b-backend"
    run "$b-dit-max" -cpu max "$b-dit" dit
    run "$b-dit-a72" -cpu cortex-a72 "$b-dit" nodit
    echo "  assembly backend:"
    # shellcheck disable=SC2086 # a list of harness names
    P256_TEST_SHARE=$share run "$b-run-core-asm" "$b-run-core-asm" -t $core_harnesses
    P256_TEST_SHARE=$share run "$b-ecmult-asm" "$b-ecmult-asm"
    echo "  portable backend:"
    run "$b-core-portable" "$b-core-portable"
    for t in test_hash test_hash_portable test_modinv test_ifma_emu; do run "$b-$t" "$b-$t"; done
    if [ "$tag" = gcc ]; then
        # shellcheck disable=SC2086 # a list of section names
        P256_TEST_SHARE=5 run "$b-batch-ifma-emulated" "$b-batch-ifma-emulated" -t $ifma_sections
    fi
done

# The assembly's planted bugs, one compiler (a control shows what the harness's source
# can see).
CTEST_FLAGS="${flags[*]}" "$PYTHON" tools/plants.py core "$ARM64_CC" aarch64_asm --arch aarch64 \
    --kinds point,scalar --run "${qemu[*]}" --bin "$ARM64_BIN/plants" | grep -v '^  '
echo "test-arm64: all passed"
