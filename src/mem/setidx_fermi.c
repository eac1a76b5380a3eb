/* setidx_fermi.c - `fermi-hash`: the Fermi L1D set-index hash (setidx.h), as
 * reverse-engineered for the Fermi L1 (Nugteren et al., HPCA 2014) and used by
 * GPGPU-Sim's GTX480 configuration (`H`, -gpgpu_cache:dl1 ...:H).
 *
 * Defined for 128-byte lines and 32 or 64 sets (16 KB 4-way, 48 KB 6-way):
 *   lower = address bits 7-11 (the line number's low 5 bits)
 *   upper = address bits 13, 14, 15, 17, 19 packed in that order into bits 0..4
 *   set   = lower XOR upper;  64 sets: address bit 12 becomes set bit 5.
 * So a 4 KB stride (bit 12) or 8 KB stride (bit 13 upward) no longer lands in one set
 * as it does with `linear`: bit 13 flips set bit 0, bit 14 set bit 1 ... */
#include "mem/setidx.h"

#include <stdio.h>

static int fermi_check(uint32_t sets, uint32_t line, char *err, size_t n)
{
    if ((sets == 32 || sets == 64) && line == 128)
        return 0;
    if (err && n)
        snprintf(err, n, "fermi-hash is defined for 128-byte lines and 32 or 64 sets (have %u "
                 "sets of %u-byte lines)", sets, line);
    return -1;
}

static uint32_t fermi_set(uint64_t a, uint64_t line_no, uint32_t sets)
{
    return setidx_fermi_hash(a, line_no, sets);
}

const setidx_ops setidx_fermi = {
    "fermi-hash",
    "Fermi L1D hash: bits 7-11 XOR bits (13,14,15,17,19); 64 sets add bit 12 as set bit 5 "
    "(128-byte lines, 32 or 64 sets)",
    0, fermi_check, fermi_set, SX_FERMI,
};
