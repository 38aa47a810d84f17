#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/bootstrap.sh [--report FILE] PART...: the system tools that make targets need.
#
# Checks what the given parts (make targets: pytest, ctime, fuzz, asan, test-arm64, ...;
# any other name needs only the base: a C compiler, make, a Python with venv and headers)
# need. When something is missing and we are root with apt-get (and P256_NO_INSTALL is
# unset), runs `apt-get update` once and installs all of it in one `apt-get install -y`;
# otherwise prints the command that would. Quiet and fast when nothing is missing.
# Exit status 0 when every part can run, 1 otherwise. With --report FILE, each part that
# cannot run is written to FILE as "part<TAB>reason", then "*<TAB>the install command"
# (tools/make_test.sh skips those parts).
# PYTHON: the interpreter the venvs are made from (default python3).
set -uo pipefail

report=
if [ "${1:-}" = --report ]; then report=$2; shift 2; : > "$report"; fi
PYTHON=${PYTHON:-python3}
arch=$(uname -m)

# have REQ: whether requirement REQ is met; pkgs REQ: the Debian packages that meet it.
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
pkgs() {
    case $1 in
        cc)        echo gcc libc6-dev ;;
        python)    echo python3 python3-venv python3-dev ;;
        libfuzzer|asanrt) echo libclang-rt-dev ;;  # clang only recommends it
        arm64cc)   echo gcc-aarch64-linux-gnu ;;
        arm64libc) echo libc6-dev-arm64-cross ;;
        qemu)      echo qemu-user ;;
        dpkgdeb)   echo dpkg ;;
        llvm)      echo llvm-16 ;;
        *)         echo "$1" ;;
    esac
}
# What a tool is for, in messages.
what() {
    case $1 in
        cc) echo "a C compiler (gcc, libc headers)" ;;
        python) echo "$PYTHON with venv and headers" ;;
        libfuzzer) echo "clang's libFuzzer" ;;
        asanrt) echo "clang's ASan runtime" ;;
        binutils) echo "nm, objdump" ;;
        arm64cc) echo aarch64-linux-gnu-gcc ;;
        arm64libc) echo "the arm64 libc" ;;
        qemu) echo qemu-aarch64 ;;
        apt) echo apt-get ;;
        dpkgdeb) echo dpkg-deb ;;
        llvm) echo "llvm-mca-16, llvm-mc-16" ;;
        *) echo "$1" ;;
    esac
}
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
check() {
    missing_of=(); is_missing=(); checked=(); blocked=()
    local part req
    for part in "$@"; do
        for req in $(wants "$part"); do
            if [ -z "${checked[$req]:-}" ]; then
                checked[$req]=1
                have "$req" || is_missing[$req]=1
            fi
        done
        for req in $base $(needs "$part"); do
            if [ -z "${checked[$req]:-}" ]; then
                checked[$req]=1
                have "$req" || is_missing[$req]=1
            fi
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
# Only what a part merely wants is missing, and it cannot be installed here: nothing to do.
if [ ${#blocked[@]} -eq 0 ] && ! { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
                                  && [ -z "${P256_NO_INSTALL:-}" ]; }; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${P256_NO_INSTALL:-}" ]; then
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
