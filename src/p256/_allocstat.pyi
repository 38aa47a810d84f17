# SPDX-License-Identifier: Apache-2.0
"""Types of p256._allocstat (csrc/allocstat.c), the allocation counter of p256 bench."""

def start() -> None: ...  # RuntimeError if already running
def stop() -> tuple[int, int]: ...  # (blocks, bytes) since start(); RuntimeError if not running
def is_running() -> bool: ...
