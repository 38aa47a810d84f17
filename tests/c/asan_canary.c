/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asan_canary.c: negative controls for `make asan`. Built with the same sanitizer flags
 * as the extension into a shared object that the sanitized interpreter loads (ctypes),
 * next to p256._core. Each function commits one deliberate error that the run must
 * report, or the sanitizer setup (runtime preloaded into Python, options, report
 * detection) is broken and a clean `make asan` would mean nothing:
 *
 *   p256_asan_canary_heap(b, 33) for a 32-byte Python bytes object b: reads one byte
 *                                past the object (bytes keep a NUL after their data, so
 *                                b[32] is still inside). ASan: heap-buffer-overflow, which
 *                                it sees only if Python's objects come from ASan's
 *                                allocator (PYTHONMALLOC=malloc), as the core's inputs do
 *   p256_asan_canary_shift(40)   shifts a 32-bit int by 40 (UBSan: shift exponent
 *                                too large)
 *
 * Harness only: never part of the extension.
 */
int p256_asan_canary_heap(const unsigned char *buf, int i);
int p256_asan_canary_shift(int s);

int p256_asan_canary_heap(const unsigned char *buf, int i)
{
    return ((volatile const unsigned char *)buf)[i];
}

int p256_asan_canary_shift(int s)
{
    volatile int one = 1;
    return one << s;
}
