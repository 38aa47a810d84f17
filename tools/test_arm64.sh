#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/test_arm64.sh: make test-arm64, the arm64 assembly (csrc/asm/*_aarch64.S) and
# PSTATE.DIT (csrc/cpu_aarch64.h) cross-compiled and run under qemu-aarch64 user-mode
# emulation. In order:
#  - each assembled object checked: only the listed data-independent-timing instructions
#    (ARM64_ASM_OK), no branch but ret, a landing pad (bti c) per function, the BTI/PAC
#    property note under -mbranch-protection, every function of ARM64_ASM_FNS present;
#  - per compiler that can target aarch64 here (gcc, and clang with the gcc cross sysroot;
#    clang's runs of the assembly at ARM64_OTHER_CC_ITERS, as in ctest): the field
#    backends' harness tests/c/test_backend.c (the one make ctest runs natively); the DIT
#    harness tests/c/arm64_dit.c on a CPU model with FEAT_DIT and on one without;
#    run_core's harnesses ARM64_CORE_HARNESSES with the assembly (point_asm: the assembly
#    point formulas against the C, limb for limb); test_ecmult.c with the assembly (its
#    subject, the scalar multiplications, is C that ctest runs per compiler and backend;
#    under qemu the portable field beneath it is test_backend's oracle, which the assembly
#    would disagree with); test_core.c with the portable C; test_hash.c,
#    test_hash_portable.c, test_modinv.c and test_ifma_emu.c (no field code: the aarch64
#    SHA-2 and safegcd code, the emulation's known answers); with gcc only, the IFMA
#    batch engine on its portable emulation at P256_TEST_ITERS=5, the sections
#    ARM64_IFMA_SECTIONS (the engine ships only for x86-64: one compiler shows the
#    emulation portable);
#  - the assembly's planted bugs, one compiler (tools/plants.py --kinds point,scalar:
#    point 1 and 4 in group_aarch64.S, the degenerate case's mask and the shift-by-2^s
#    reduction, point 2 in group_impl.h, the vartime addition's fallback; scalar 1 and 3
#    in scalar_aarch64.S and ecmult_aarch64.S, scalar 4 in scalar_impl.h).
# Every setting comes from the Makefile's ARM64_* variables:
#   ARM64_CC, ARM64_CLANG   the cross compilers (clang used only where it can build and
#                           link for the sysroot)
#   ARM64_OBJDUMP, ARM64_READELF, ARM64_RUN (qemu-aarch64 -L SYSROOT), ARM64_FLAGS
#   ARM64_ASM               the assembly sources; ARM64_VFLAGS the variant's arguments
#   ARM64_ASM_OK            the instructions the assembly may contain
#   ARM64_ASM_FNS           the functions it must export
#   ARM64_CORE_HARNESSES    run_core's harnesses on the assembly backend
#   ARM64_IFMA_SECTIONS     test_batch_ifma.c's sections run on the IFMA emulation
#   ARM64_OTHER_CC_ITERS    P256_TEST_ITERS of clang's assembly runs (gcc's run in full; the
#                           assembly is the same bytes), unless P256_TEST_ITERS is set
#   ARM64_BIN, PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ARM64_CC:?}" "${ARM64_CLANG:?}" "${ARM64_OBJDUMP:?}" "${ARM64_READELF:?}" "${ARM64_RUN:?}"
: "${ARM64_FLAGS:?}" "${ARM64_ASM:?}" "${ARM64_VFLAGS:?}" "${ARM64_ASM_OK:?}" "${ARM64_ASM_FNS:?}"
: "${ARM64_CORE_HARNESSES:?}" "${ARM64_IFMA_SECTIONS:?}" "${ARM64_OTHER_CC_ITERS:?}" "${ARM64_BIN:?}"
: "${PYTHON:=python3}"
# shellcheck source=tools/test_share.sh
. tools/test_share.sh
# shellcheck disable=SC2206 # the variables are lists of words
flags=($ARM64_FLAGS) vflags=($ARM64_VFLAGS) qemu=($ARM64_RUN)
mkdir -p "$ARM64_BIN"

# The static checks of each assembly file: only the listed instructions, a function
# symbol at least, bti c first in each function, and the BTI/PAC property note when
# assembled with -mbranch-protection.
allowed=()
for i in $ARM64_ASM_OK; do allowed+=(-e "$i"); done
for src in $ARM64_ASM; do
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
for f in $ARM64_ASM_FNS; do
    found=
    for src in $ARM64_ASM; do
        grep -q "<$f>:" "$ARM64_BIN/$(basename "$src" .S).dis" && found=1
    done
    [ -n "$found" ] || { echo "test-arm64: $f is in none of $ARM64_ASM"; exit 1; }
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
    # ARM64_IFMA_SECTIONS leaves out the batch verification's section: C over the same
    # emulated intrinsics as the others, and most of the harness's time under qemu.
    if [ "$tag" = gcc ]; then
        $cc "${flags[@]}" -DP256_IFMA_EMULATE -o "$b-batch-ifma-emulated" tests/c/test_batch_ifma.c "${vflags[@]}"
    fi
    # asm_iters: P256_TEST_ITERS of the assembly's runs (empty: the default, 100); its
    # random cases in full once, with gcc (the rule: tools/test_share.sh)
    asm_iters=${P256_TEST_ITERS:-}
    if [ "$tag" != gcc ]; then
        share_iters "$ARM64_OTHER_CC_ITERS" "test-arm64 [$cc]" "the assembly's random cases ran in full with gcc"
        asm_iters=$ITERS
    fi
    echo "test-arm64 [$cc]: run under ${qemu[0]}"
    P256_TEST_ITERS=$asm_iters run "$b-backend" "$b-backend"
    run "$b-dit-max" -cpu max "$b-dit" dit
    run "$b-dit-a72" -cpu cortex-a72 "$b-dit" nodit
    echo "  assembly backend:"
    # shellcheck disable=SC2086 # a list of harness names
    P256_TEST_ITERS=$asm_iters run "$b-run-core-asm" "$b-run-core-asm" -t $ARM64_CORE_HARNESSES
    P256_TEST_ITERS=$asm_iters run "$b-ecmult-asm" "$b-ecmult-asm"
    echo "  portable backend:"
    run "$b-core-portable" "$b-core-portable"
    for t in test_hash test_hash_portable test_modinv test_ifma_emu; do run "$b-$t" "$b-$t"; done
    if [ "$tag" = gcc ]; then
        # shellcheck disable=SC2086 # a list of section names
        P256_TEST_ITERS=5 run "$b-batch-ifma-emulated" "$b-batch-ifma-emulated" -t $ARM64_IFMA_SECTIONS
    fi
done

# The assembly's planted bugs, one compiler (a control shows what the harness's source
# can see).
CTEST_FLAGS="$ARM64_FLAGS" "$PYTHON" tools/plants.py core "$ARM64_CC" aarch64_asm --arch aarch64 \
    --kinds point,scalar --run "$ARM64_RUN" --bin "$ARM64_BIN/plants" | grep -v '^  '
echo "test-arm64: all passed"
