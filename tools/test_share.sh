# SPDX-License-Identifier: Apache-2.0
# tools/test_share.sh, sourced by tools/ctest.sh and tools/test_arm64.sh: the one rule for a
# harness run whose random cases another run of the same subject already had in full
# (another compiler's run of the same assembled bytes, the IFMA engine's emulated run
# beside its native one).
#
# share_iters SHARE LABEL WHY: sets ITERS, the P256_TEST_ITERS for such a run. When the
# caller set P256_TEST_ITERS, that value, for every run alike (a full run stays full, a
# quick one quick). Otherwise SHARE, a percentage of each harness's default random cases
# (tests/c/harness.h; the fixed cases always run), said on a line "LABEL: ... (WHY)".
share_iters() {
    if [ -n "${P256_TEST_ITERS:-}" ]; then
        ITERS=$P256_TEST_ITERS
        return
    fi
    ITERS=$1
    echo "$2: P256_TEST_ITERS=$1 ($3)"
}
