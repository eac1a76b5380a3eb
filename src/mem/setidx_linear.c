/* setidx_linear.c - `linear`: set = line number mod sets (setidx.h). A power-of-two
 * stride of sets x line bytes or more maps every access to one set. */
#include "mem/setidx.h"

static uint32_t linear_set(uint64_t idx, uint64_t line_no, uint32_t sets)
{
    (void)idx;
    return (uint32_t)(line_no % sets);
}

const setidx_ops setidx_linear = {
    "linear", "set = (address / line) mod sets", 1, NULL, linear_set, SX_CALL,
};
