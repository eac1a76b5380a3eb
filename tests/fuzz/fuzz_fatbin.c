/* fuzz_fatbin.c - libFuzzer target: the fatbinary reader (container and entry headers,
 * zstd- and LZ4-compressed PTX and SASS, the cubins' register counts, the pragmas that
 * carry them) must reject any corrupt image with a message. The input is read both as a
 * fatbinary and as a cubin. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size, 8-byte aligned copy: reads past `size` trip AddressSanitizer */
    uint8_t *img = malloc(size ? size : 1);
    if (!img)
        return 0;
    if (size)
        memcpy(img, data, size);
    char err[256];
    err[0] = 0;
    if (size >= 16)
        (void)ws_fatbin_container_size(img, err, sizeof err);
    ws_fatbin_entry e[16];
    size_t n = 0;
    err[0] = 0;
    if (ws_fatbin_entries(img, size, e, 16, &n, err, sizeof err) && !err[0])
        abort();
    size_t len = 0;
    uint32_t arch = 0;
    err[0] = 0;
    char *ptx = ws_fatbin_ptx(img, size, WS_FATBIN_MAX_ARCH, &len, &arch, err, sizeof err);
    if (!ptx && !err[0])
        abort();
    ws_fatbin_regs *r = NULL;
    size_t count = 0;
    err[0] = 0;
    if (ws_fatbin_sass_regs(img, size, &r, &count, &arch, err, sizeof err)) {
        if (!err[0] || r || count)
            abort();
    } else if (ptx) {
        size_t olen = 0, added = 0;
        char *out = ws_fatbin_ptx_add_regs(ptx, len, r, count, arch, &olen, &added, err,
                                           sizeof err);
        if (out && (strlen(out) != olen || !added))
            abort();
        free(out);
    }
    ws_fatbin_regs_free(r, count);
    free(ptx);
    err[0] = 0;
    if (ws_cubin_regs(img, size, &r, &count, err, sizeof err)) {
        if (!err[0] || r || count)
            abort();
    } else {
        for (size_t i = 0; i < count; i++)
            if (!r[i].name[0] || r[i].regs == 0 || r[i].regs > WS_FATBIN_MAX_REGS)
                abort();
        ws_fatbin_regs_free(r, count);
    }
    free(img);
    return 0;
}
