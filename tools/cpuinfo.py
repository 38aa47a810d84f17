# SPDX-License-Identifier: Apache-2.0
"""The host CPU's feature flags as Linux reports them, for the tools and the tests.

One reader of /proc/cpuinfo for the Python side of the build (tools/plants.py decides
which plants this CPU can run, tests/test_backend.py which backend the library must
choose). It is an oracle outside the library on purpose: the library asks CPUID itself
(csrc/cpu.h), and a test of that choice must not reuse it.
"""

from __future__ import annotations

from typing import Optional, Set


def host_flags(path: str = "/proc/cpuinfo") -> Optional[Set[str]]:
    """The first CPU's flags ("flags" on x86-64, "Features" on arm64), or None when the
    file cannot be read or names none (not Linux, or a sandbox without /proc)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


if __name__ == "__main__":  # tests/c/meson.build: which variants and engines this CPU runs
    print(" ".join(sorted(host_flags() or ())))
