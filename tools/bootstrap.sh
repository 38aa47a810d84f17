#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/bootstrap.sh [--report FILE] PART...: the system tools that make targets need
# (needs() below; any other target needs only the base: a C compiler, make, a Python with
# venv and headers). When something is missing and we are root with apt-get (and
# P256_NO_INSTALL is unset), one `apt-get update` and one `apt-get install -y` of all of
# it; otherwise the command that would. Exit status 0 when every part can run, else 1.
# --report FILE: each part that cannot run as "part<TAB>reason", then "*<TAB>the install
# command" (tools/make_test.sh skips those parts). PYTHON: the venvs' interpreter.
set -uo pipefail
report=
if [ "${1:-}" = --report ]; then report=$2; shift 2; : > "$report"; fi
PYTHON=${PYTHON:-python3}
arch=$(uname -m)

# have REQ: whether requirement REQ is met.
have() {
    case $1 in
        cc)        command -v gcc >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 \
                   && [ -e /usr/include/stdio.h ] ;;
        make)      command -v make >/dev/null 2>&1 ;;
        python)    "$PYTHON" -c 'import venv, ensurepip, os, sysconfig
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' >/dev/null 2>&1 ;;
        clang)     command -v clang >/dev/null 2>&1 ;;
        libfuzzer) command -v clang >/dev/null 2>&1 \
                   && [ -e "$(clang -print-file-name="libclang_rt.fuzzer-$arch.a")" ] ;;
        asanrt)    command -v clang >/dev/null 2>&1 \
                   && [ -e "$(clang -print-file-name="libclang_rt.asan-$arch.so")" ] ;;
        valgrind)  command -v valgrind >/dev/null 2>&1 ;;
        openssl)   command -v openssl >/dev/null 2>&1 ;;
        binutils)  command -v nm >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1 ;;
        arm64cc)   command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ;;
        arm64libc) [ -e /usr/aarch64-linux-gnu/include/stdio.h ] ;;
        qemu)      command -v qemu-aarch64 >/dev/null 2>&1 ;;
        apt)       command -v apt-get >/dev/null 2>&1 ;;
        dpkgdeb)   command -v dpkg-deb >/dev/null 2>&1 ;;
        llvm)      command -v llvm-mca-16 >/dev/null 2>&1 && command -v llvm-mc-16 >/dev/null 2>&1 ;;
        ccache)    command -v ccache >/dev/null 2>&1 ;;
        *)         echo "bootstrap: unknown requirement $1" >&2; return 1 ;;
    esac
}
# info REQ: the Debian packages that meet REQ, then after a | what it is, in messages.
info() {
    case $1 in
        cc)        echo "gcc libc6-dev|a C compiler (gcc, libc headers)" ;;
        python)    echo "python3 python3-venv python3-dev|$PYTHON with venv and headers" ;;
        libfuzzer) echo "libclang-rt-dev|clang's libFuzzer" ;;  # clang only recommends it
        asanrt)    echo "libclang-rt-dev|clang's ASan runtime" ;;
        binutils)  echo "binutils|nm, objdump" ;;
        arm64cc)   echo "gcc-aarch64-linux-gnu|aarch64-linux-gnu-gcc" ;;
        arm64libc) echo "libc6-dev-arm64-cross|the arm64 libc" ;;
        qemu)      echo "qemu-user|qemu-aarch64" ;;
        apt)       echo "apt|apt-get" ;;
        dpkgdeb)   echo "dpkg|dpkg-deb" ;;
        llvm)      echo "llvm-16|llvm-mca-16, llvm-mc-16" ;;
        *)         echo "$1|$1" ;;
    esac
}
pkgs() { local i; i=$(info "$1"); echo "${i%%|*}"; }
what() { local i; i=$(info "$1"); echo "${i#*|}"; }
# needs PART: the requirements of a make target beyond the base.
needs() {
    case $1 in
        pytest|pytest-portable) echo openssl ;;      # tests/test_interop_openssl.py
        bench-c)           echo openssl ;;           # openssl speed, for the ratios
        ctime)             echo valgrind ;;
        fuzz)              echo clang libfuzzer ;;
        asan)              echo clang asanrt binutils ;;
        test-arm64|bench-arm64) echo arm64cc arm64libc qemu binutils ;;
        test-arm64-python) echo arm64cc arm64libc qemu apt dpkgdeb ;;
        mca|mca-check)     echo llvm arm64cc ;;
    esac
}

# wants PART: what makes a part faster but that it runs without: installed with the rest
# where that is possible, never a reason to skip the part. ccache: every build of the
# extension compiles the same core objects (the core has no Python in it), once per venv
# and CPython version (the Makefile's EXT_CC uses it when it is installed).
wants() {
    case $1 in
        pytest|pytest-portable|pythons|package|fuzz-smoke|check) echo ccache ;;
    esac
}

base="cc make python"
declare -A missing_of=()   # part -> its missing requirements
declare -A is_missing=()   # requirement -> 1
declare -A checked=()      # requirement -> 1 once checked
blocked=()                 # the parts that cannot run, in the order given
probe() { [ -n "${checked[$1]:-}" ] || { checked[$1]=1; have "$1" || is_missing[$1]=1; }; }
check() {
    missing_of=(); is_missing=(); checked=(); blocked=()
    local part req
    for part in "$@"; do
        for req in $(wants "$part"); do probe "$req"; done
        for req in $base $(needs "$part"); do
            probe "$req"
            [ -n "${is_missing[$req]:-}" ] && missing_of[$part]="${missing_of[$part]:-} $req"
        done
        [ -n "${missing_of[$part]:-}" ] && blocked+=("$part")
    done
    return 0
}
package_list() {
    local req p seen=" " out=""
    for req in "${!is_missing[@]}"; do
        for p in $(pkgs "$req"); do
            case "$seen" in *" $p "*) ;; *) seen="$seen$p "; out="$out $p" ;; esac
        done
    done
    # A stable order: the messages and the command are the same from run to run.
    echo $(printf '%s\n' $out | sort)
}

[ $# -gt 0 ] || set -- base
check "$@"
[ ${#is_missing[@]} -eq 0 ] && exit 0

packages=$(package_list)
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${P256_NO_INSTALL:-}" ]; }
# Only what a part merely wants is missing, and it cannot be installed here: nothing to do.
[ ${#blocked[@]} -eq 0 ] && ! can_install && exit 0
if can_install; then
    echo "bootstrap: installing $packages (for: ${blocked[*]:-faster builds})"
    export DEBIAN_FRONTEND=noninteractive
    aptlog=${TMPDIR:-/tmp}/p256-bootstrap-apt.log
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages > "$aptlog" 2>&1; then
        check "$@"
    else
        tail -n 30 "$aptlog"; echo "bootstrap: apt-get failed (above; all of it in $aptlog)"
    fi
    [ ${#is_missing[@]} -eq 0 ] && { echo "bootstrap: done"; exit 0; }
    [ ${#blocked[@]} -eq 0 ] && { echo "bootstrap: done (without: $packages)"; exit 0; }
    packages=$(package_list)
fi

# Still missing: say exactly what to run, and which parts cannot run until then.
if command -v apt-get >/dev/null 2>&1 && ! [ -n "${is_missing[apt]:-}" ]; then
    if [ "$(id -u)" = 0 ]; then sudo=; else sudo="sudo "; fi
    cmd="${sudo}apt-get update && ${sudo}apt-get install -y $packages"
else
    cmd="install with your package manager (Debian names): $packages"
fi
reasons=
[ "$(id -u)" = 0 ] || reasons="not root"
[ -z "${P256_NO_INSTALL:-}" ] || reasons="P256_NO_INSTALL is set"
echo "bootstrap: missing, so not run: ${blocked[*]}${reasons:+ ($reasons)}"
for part in "${blocked[@]}"; do
    list=
    for req in ${missing_of[$part]}; do list="$list${list:+, }$(what "$req")"; done
    echo "bootstrap:   $part needs $list"
    [ -z "$report" ] || printf '%s\tmissing %s\n' "$part" "$list" >> "$report"
done
[ -z "$report" ] || printf '*\t%s\n' "$cmd" >> "$report"
echo "bootstrap: to install them run:"
echo "    $cmd"
exit 1
