/* SPDX-License-Identifier: Apache-2.0 */
/*
 * canary_ctime_field.c: like canary_ctime.c, but the secret reaches the branch only
 * through the field backend's multiplication and squaring (the assembly, in an assembly
 * variant), so `make ctime` also proves that valgrind propagates secrecy through
 * MULX/ADCX/ADOX and CMOV: if it lost track there, a clean ctime run of that variant
 * would mean nothing.
 */
#include "ctime.h"

int main(void)
{
    uint8_t d[32];
    p256_fe a, b;
    volatile int sink = 0;
    if (!p256_seckey_generate(d))
        return 2;
    P256_SECRET(d, sizeof d);
    p256_limbs_from_be32(a.v, d);
    a.v[3] &= 0x7fffffffffffffffULL; /* < p */
    p256_fe_mul(&b, &a, &p256_fe_b);
    p256_fe_sqr(&b, &b);
    if (b.v[0] & 1) /* the deliberate leak, after the backend */
        sink++;
    P256_DECLASSIFY(d, sizeof d);
    printf("canary_ctime_field: ran (valgrind must have reported the branch above)\n");
    return sink * 0;
}
