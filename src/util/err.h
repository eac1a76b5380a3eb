/* err.h - error codes shared by every layer of the simulator. */
#ifndef WS_UTIL_ERR_H
#define WS_UTIL_ERR_H

/* Error codes of the simulator API; src/api maps them to CUresult. */
typedef enum {
    WS_OK = 0,
    WS_E_INVALID_VALUE,       /* bad argument (NULL, zero size, bad dims ...)          */
    WS_E_OUT_OF_MEMORY,       /* device memory exhausted                              */
    WS_E_INVALID_PTX,         /* parse error or unsupported instruction at load       */
    WS_E_NOT_FOUND,           /* no such kernel / global                              */
    WS_E_INVALID_HANDLE,      /* not a live allocation / module                       */
    WS_E_OUT_OF_RESOURCES,    /* launch exceeds threads/regs/shared limits            */
    WS_E_ILLEGAL_ADDRESS,     /* kernel accessed memory out of bounds                 */
    WS_E_MISALIGNED,          /* kernel access not aligned to its size                */
    WS_E_TRAP,                /* trap / brkpt executed                                */
    WS_E_DEADLOCK,            /* no progress (barrier never completes ...)            */
    WS_E_LAUNCH_FAILED,       /* any other failure during the kernel                  */
    WS_E_STOPPED,             /* run stopped early: sim.max_cycles / sim.max_insts
                                 budget reached, or SIGINT/SIGTERM (statistics partial) */
} ws_err;
const char *ws_err_name(ws_err e);

#include <stddef.h>

/* printf into err[n] when err is non-NULL and n > 0 (error-message out-parameters). */
void ws_seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads a whole file into a NUL-terminated buffer (caller frees); *len gets its size.
 * On failure returns NULL with "path: reason" in err and errno set (the fopen/fread
 * error, ENOMEM, or EFBIG for a file over `max` bytes; max = SIZE_MAX: no limit). */
char *ws_read_file(const char *path, size_t *len, size_t max, char *err, size_t n);

#endif
