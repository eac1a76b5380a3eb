/* fuzz_fatbin.c - libFuzzer target: the fatbinary reader (container and entry headers,
 * zstd- and LZ4-compressed PTX) must reject any corrupt image with a message. */
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
    free(ptx);
    free(img);
    return 0;
}
