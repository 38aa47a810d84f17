# SPDX-License-Identifier: Apache-2.0
"""The benchmarks' one way to time a call: seconds per call of fn over a loop of a given
length, and the length of a loop that lasts about a given time. Each script chooses its
clock: time.thread_time (this thread's CPU time: other processes on a shared machine
count little), time.process_time (every thread of the process) or time.perf_counter
(wall time)."""

from __future__ import annotations

import time
from typing import Callable


def per_call(fn: Callable[[], object], number: int,
             timer: Callable[[], float] = time.perf_counter) -> float:
    """Seconds per call of fn, from `number` calls in a row."""
    start = timer()
    for _ in range(number):
        fn()
    return (timer() - start) / number


def calls_for(fn: Callable[[], object], seconds: float,
              timer: Callable[[], float] = time.perf_counter) -> int:
    """How many calls of fn last about `seconds`: doubled from 1 until a quarter of that
    is reached (at most 2^20), then scaled up."""
    fn()
    number = 1
    while True:
        spent = per_call(fn, number, timer) * number
        if spent >= seconds / 4 or number >= 1 << 20:
            break
        number *= 2
    return max(1, int(number * seconds / max(spent, 1e-9)))
