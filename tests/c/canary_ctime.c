/*
 * canary_ctime.c: proof that the constant-time check can fail. It branches on a byte
 * marked secret exactly as the core marks its secrets; `make ctime` requires valgrind
 * to report it. If this ever passes quietly, P256_SECRET has stopped working and every
 * clean ctime run means nothing.
 */
#include "p256.c"

#include <stdio.h>

int main(void)
{
    uint8_t d[32];
    volatile int sink = 0;
    if (!p256_seckey_generate(d))
        return 2;
    P256_SECRET(d, sizeof d);
    if (d[0] & 1) /* the deliberate leak */
        sink++;
    P256_DECLASSIFY(d, sizeof d);
    printf("canary_ctime: ran (valgrind must have reported the branch above)\n");
    return sink * 0;
}
