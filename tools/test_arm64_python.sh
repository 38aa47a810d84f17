#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pytest suite on aarch64, under qemu-aarch64 user-mode emulation (make test-arm64-python):
# 1. Debian's python3.11 for arm64 and the libraries it loads, fetched with apt-get under a
#    private state directory (the machine's dpkg and apt configuration untouched) and
#    unpacked into a sysroot, which qemu-aarch64 -L serves as the guest's /; 2. the test
#    dependencies as aarch64 wheels, unpacked into a site directory; 3. p256._core
#    cross-compiled as meson.build builds it, with csrc/variants.txt's aarch64 variants;
#    4. pytest once per backend (ARM64_PY_BACKENDS: asm, portable), by the arm64 Python
#    through a wrapper that is also its sys.executable (a test's Python subprocess is arm64
#    too). Left to the native runs: the tests whose outcome cannot depend on the
#    architecture (the pure-Python reference, the generators, mypy, the SPDX lines, the
#    process-pool recipe). Steps 1 and 2 are cached in build/arm64-python (outside tests/:
#    pytest must not collect the sysroot's CPython tests); delete it to fetch again.
set -euo pipefail
cd "$(dirname "$0")/.."

CC=${ARM64_CC:-aarch64-linux-gnu-gcc}
QEMU=${ARM64_QEMU:-qemu-aarch64}
HOSTPY=${PYTHON:-python3}
PYV=3.11 # Debian 12's python3 (the sysroot's), the wheels' tag
BACKENDS=${ARM64_PY_BACKENDS:-asm portable}
WORK=$(realpath -m "${ARM64_PY_WORK:-build/arm64-python}")
PYTEST_ARGS=${ARM64_PYTEST_ARGS:---ignore=tests/test_reference.py --deselect=tests/test_wycheproof.py::test_reference --ignore=tests/test_generated.py --ignore=tests/test_typing.py --ignore=tests/test_license.py --ignore=tests/test_scale_out.py}
# The test files (default: the whole tests/ directory, less the ignores above).
TESTS=${ARM64_PY_TESTS:-tests}
SYSROOT=$WORK/sysroot
mkdir -p "$WORK"

log() { echo "test-arm64-python: $*"; }

# -- 1. the arm64 Python -------------------------------------------------------------------
if [ ! -e "$WORK/.sysroot-ok" ]; then
    log "fetching Debian's python$PYV for arm64 into $SYSROOT"
    apt_dir=$WORK/apt
    rm -rf "$apt_dir" "$SYSROOT" "$WORK/debs"
    mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$WORK/debs"
    : > "$apt_dir/status"
    apt_opts=(-o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/status"
              -o "Dir::Cache=$apt_dir/cache" -o APT::Architecture=arm64
              -o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
    [ "$(id -u)" = 0 ] || apt_opts=("${apt_opts[@]:0:${#apt_opts[@]}-2}")
    apt-get -qq "${apt_opts[@]}" update
    # python3.11 and what its interpreter and stdlib extension modules link against
    # (libc6 too, so the sysroot does not depend on the cross toolchain's copy).
    (cd "$WORK/debs" && apt-get -qq "${apt_opts[@]}" download \
        "python$PYV-minimal" "libpython$PYV-minimal" "libpython$PYV-stdlib" "libpython$PYV-dev" \
        libc6 libgcc-s1 libexpat1 zlib1g libffi8 libssl3 libbz2-1.0 liblzma5 libsqlite3-0 \
        libncursesw6 libtinfo6 libreadline8 libuuid1 libcrypt1 libdb5.3 libgdbm6 libnsl2 \
        libtirpc3 libgssapi-krb5-2 libk5crypto3 libkrb5-3 libkrb5support0 libkeyutils1 \
        libcom-err2)
    mkdir -p "$SYSROOT"
    for deb in "$WORK"/debs/*.deb; do dpkg-deb -x "$deb" "$SYSROOT"; done
    "$QEMU" -L "$SYSROOT" "$SYSROOT/usr/bin/python$PYV" -c \
        'import platform, ssl, hashlib, ctypes, sqlite3; assert platform.machine() == "aarch64"'
    touch "$WORK/.sysroot-ok"
fi

# The wrapper: argv[0] (qemu -0) stays this script, so sys.executable is this script.
cat > "$WORK/python3" <<EOF
#!/bin/sh
exec $QEMU -L "$SYSROOT" -0 "\$0" "$SYSROOT/usr/bin/python$PYV" "\$@"
EOF
chmod +x "$WORK/python3"

# -- 2. the test dependencies ----------------------------------------------------------------
if [ ! -e "$WORK/.site-ok" ]; then
    log "fetching aarch64 wheels of the test dependencies"
    rm -rf "$WORK/wheels" "$WORK/site"
    "$HOSTPY" -m pip download -q --only-binary=:all: -d "$WORK/wheels" \
        --python-version "$PYV" --implementation cp --abi "cp${PYV/./}" --abi abi3 --abi none \
        --platform manylinux2014_aarch64 --platform manylinux_2_28_aarch64 \
        --platform manylinux_2_34_aarch64 \
        "pytest>=7" "hypothesis>=6" "cryptography>=41" "pyjwt>=2.8" "cbor2>=5.4" "ecdsa>=0.18"
    mkdir -p "$WORK/site"
    for whl in "$WORK"/wheels/*.whl; do "$HOSTPY" -m zipfile -e "$whl" "$WORK/site"; done
    touch "$WORK/.site-ok"
fi

# -- 3 and 4. the extension as meson builds it, then pytest once per backend ---------------
# As meson.build does: csrc/p256.c once per variant of csrc/variants.txt for aarch64 (its
# API static behind the table p256_api_<name>), the module, csrc/backend.c (choice at
# import) and the shared tables.
ext_suffix=$("$WORK/python3" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
pkg=$WORK/pkg
rm -rf "$pkg"
mkdir -p "$pkg/p256" "$WORK/obj"
cp src/p256/*.py "$pkg/p256/"
# The flags meson uses for the extension (meson.build), at -O2.
cflags=(-O2 -std=c99 -Wall -Wextra -fPIC -fvisibility=hidden -fno-strict-aliasing
        -Icsrc -I"$SYSROOT/usr/include/python$PYV" -I"$SYSROOT/usr/include")
objs=() have=() names=()
while read -r name arch _os _cpu defines sources; do
    case $name in ''|'#'*) continue ;; esac
    [ "$arch" = any ] || [ "$arch" = aarch64 ] || continue
    [ "$defines" = - ] && defines=
    [ "$sources" = - ] && sources=
    # shellcheck disable=SC2086 # comma-separated lists, split into words
    $CC "${cflags[@]}" -DP256_VARIANT=p256_api_$name -DP256_TABLES_EXTERN ${defines//,/ } \
        -c -o "$WORK/obj/p256_$name.o" csrc/p256.c
    objs+=("$WORK/obj/p256_$name.o")
    for src in ${sources//,/ }; do
        $CC "${cflags[@]}" -c -o "$WORK/obj/$name-$(basename "$src").o" "$src"
        objs+=("$WORK/obj/$name-$(basename "$src").o")
    done
    have+=("-DP256_HAVE_${name^^}")
    names+=("$name")
done < csrc/variants.txt
# The extension's own sources and the version, as meson.build lists them.
ext_srcs=$(awk "/py.extension_module\('_core'/ {f = 1} f && /c_args:/ {exit} f" meson.build \
           | grep -o "'csrc/[^']*\.c'" | tr -d "'")
version=$(sed -n "s/^ *version: '\([^']*\)'.*/\1/p" meson.build | head -n 1)
log "building p256/_core$ext_suffix with $CC: variants ${names[*]};" $ext_srcs
# shellcheck disable=SC2086 # ext_srcs is a list of files
$CC "${cflags[@]}" -shared "${have[@]}" -DP256_VERSION="\"$version\"" \
    -o "$pkg/p256/_core$ext_suffix" $ext_srcs "${objs[@]}"
$CC "${cflags[@]}" -shared -o "$pkg/p256/_allocstat$ext_suffix" csrc/allocstat.c
for backend in $BACKENDS; do
    case $backend in
        asm) want=aarch64-asm ;;
        portable) want=portable ;;
        *) echo "unknown backend $backend (asm, portable)"; exit 2 ;;
    esac
    got=$(P256_BACKEND=$want PYTHONPATH=$pkg "$WORK/python3" -c 'import p256; print(p256.backend())')
    [ "$got" = "$want" ] || { log "[$backend] the extension says backend $got, not $want"; exit 1; }
    log "[$backend] pytest under $QEMU (P256_BACKEND=$want)"
    # shellcheck disable=SC2086 # PYTEST_ARGS and TESTS are lists
    P256_BACKEND=$want PYTHONPATH=$pkg:$WORK/site "$WORK/python3" -m pytest -q -p no:cacheprovider $PYTEST_ARGS $TESTS
done
log "all passed"
