/* err.c - names of the simulator's error codes. */
#include "util/err.h"

const char *ws_err_name(ws_err e)
{
    static const char *const names[] = {
        "ok", "invalid value", "out of memory", "invalid PTX", "not found", "invalid handle",
        "out of resources", "illegal address", "misaligned address", "trap", "deadlock",
        "launch failed",
    };
    return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "unknown error";
}
