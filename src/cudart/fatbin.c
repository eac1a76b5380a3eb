/* fatbin.c - fatbinary containers: entries, PTX selection, zstd and LZ4 decompression. */
#include "cudart/fatbin.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#include "util/err.h"

#define CONTAINER_HDR 16u
#define ENTRY_HDR_MIN 64u           /* fields read below end at +64                 */
#define MAX_PTX_BYTES (1ull << 28)  /* 256 MiB: refuse absurd uncompressed sizes     */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

size_t ws_fatbin_container_size(const void *data, char *err, size_t n)
{
    const uint8_t *p = data;
    if (!p) {
        ws_seterr(err, n, "fatbinary: NULL image");
        return 0;
    }
    if (rd32(p) != WS_FATBIN_MAGIC) {
        ws_seterr(err, n, "fatbinary: bad container magic 0x%08x (expected 0x%08x)", rd32(p),
                  WS_FATBIN_MAGIC);
        return 0;
    }
    uint16_t hdr = rd16(p + 6);
    uint64_t size = rd64(p + 8);
    if (hdr < CONTAINER_HDR || size > (1ull << 40)) {
        ws_seterr(err, n, "fatbinary: corrupt container header (header %u bytes, %llu bytes "
                  "of entries)", hdr, (unsigned long long)size);
        return 0;
    }
    return (size_t)(hdr + size);
}

int ws_fatbin_entries(const void *data, size_t len, ws_fatbin_entry *out, size_t max,
                      size_t *count, char *err, size_t n)
{
    const uint8_t *base = data;
    size_t off = 0, found = 0;
    *count = 0;
    if (!base || len < CONTAINER_HDR) {
        ws_seterr(err, n, "fatbinary: image truncated (%zu bytes, a container header is 16)",
                  len);
        return -1;
    }
    while (off + CONTAINER_HDR <= len) {
        const uint8_t *c = base + off;
        if (rd32(c) != WS_FATBIN_MAGIC) {
            if (off && rd32(c) == 0)  /* zero padding after the last container */
                break;
            ws_seterr(err, n, "fatbinary: bad container magic 0x%08x at offset %zu", rd32(c),
                      off);
            return -1;
        }
        uint16_t hdr = rd16(c + 6);
        uint64_t size = rd64(c + 8);
        if (hdr < CONTAINER_HDR || hdr > len - off || size > len - off - hdr) {
            ws_seterr(err, n, "fatbinary: container at offset %zu is truncated or corrupt "
                      "(header %u, entries %llu bytes, %zu bytes left)", off, hdr,
                      (unsigned long long)size, len - off);
            return -1;
        }
        const uint8_t *e = c + hdr, *end = e + size;
        while (e < end) {
            size_t left = (size_t)(end - e);
            if (left < ENTRY_HDR_MIN) {
                ws_seterr(err, n, "fatbinary: entry header truncated at offset %zu",
                          (size_t)(e - base));
                return -1;
            }
            uint32_t ehdr = rd32(e + 4);
            uint64_t psize = rd64(e + 8);
            if (ehdr < ENTRY_HDR_MIN || ehdr > left || psize > left - ehdr) {
                ws_seterr(err, n, "fatbinary: entry at offset %zu is truncated or corrupt "
                          "(header %u, payload %llu bytes, %zu bytes left)",
                          (size_t)(e - base), ehdr, (unsigned long long)psize, left);
                return -1;
            }
            if (found < max && out) {
                ws_fatbin_entry *x = &out[found];
                x->kind = rd16(e);
                x->ptx_minor = rd16(e + 24);
                x->ptx_major = rd16(e + 26);
                x->arch = rd32(e + 28);
                x->flags = rd64(e + 40);
                x->payload = e + ehdr;
                x->payload_size = psize;
                x->compressed_size = rd32(e + 16);
                x->uncompressed_size = rd64(e + 56);
            }
            found++;
            e += ehdr + psize;
        }
        off += hdr + size;
        off = (off + 7) & ~(size_t)7;
    }
    *count = found;
    return 0;
}

/* Streams the frame into a buffer that grows with what zstd actually produces, so a
 * corrupt header that declares gigabytes costs nothing until the data bears it out; the
 * output may not exceed the size the frame or the entry header declares, nor MAX_PTX_BYTES. */
static char *decompress_zstd(const ws_fatbin_entry *x, size_t *out_len, char *err, size_t n)
{
    uint64_t csize = x->compressed_size ? x->compressed_size : x->payload_size;
    if (csize > x->payload_size) {
        ws_seterr(err, n, "fatbinary: compressed size %llu exceeds the payload (%llu bytes)",
                  (unsigned long long)csize, (unsigned long long)x->payload_size);
        return NULL;
    }
    unsigned long long want = ZSTD_getFrameContentSize(x->payload, csize);
    if (want == ZSTD_CONTENTSIZE_ERROR) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX is not a valid zstd frame", x->arch);
        return NULL;
    }
    if (want == ZSTD_CONTENTSIZE_UNKNOWN)
        want = x->uncompressed_size;
    else if (x->uncompressed_size && want != x->uncompressed_size) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX: the zstd frame holds %llu bytes but the "
                  "entry header says %llu", x->arch, want,
                  (unsigned long long)x->uncompressed_size);
        return NULL;
    }
    if (want == 0 || want > MAX_PTX_BYTES) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX: implausible uncompressed size %llu",
                  x->arch, want);
        return NULL;
    }
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t cap = (size_t)(want < (1u << 20) ? want : (1u << 20));
    char *buf = malloc(cap + 1);
    if (!dc || !buf) {
        ZSTD_freeDCtx(dc);
        free(buf);
        ws_seterr(err, n, "fatbinary: out of memory decompressing compute_%u PTX", x->arch);
        return NULL;
    }
    ZSTD_inBuffer in = { x->payload, (size_t)csize, 0 };
    ZSTD_outBuffer out = { buf, cap, 0 };
    const char *fail = NULL;
    size_t rc = 1;
    while (rc != 0) {
        if (out.pos == out.size) {
            if (out.size >= want) {
                fail = "it decompresses to more than its declared size";
                break;
            }
            size_t ncap = out.size * 2 < want ? out.size * 2 : (size_t)want;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                fail = "out of memory";
                break;
            }
            buf = nb;
            out.dst = buf;
            out.size = ncap;
        }
        size_t before_in = in.pos, before_out = out.pos;
        rc = ZSTD_decompressStream(dc, &out, &in);
        if (ZSTD_isError(rc)) {
            fail = ZSTD_getErrorName(rc);
            break;
        }
        if (rc != 0 && in.pos == in.size && out.pos < out.size && before_in == in.pos &&
            before_out == out.pos) {
            fail = "the frame is truncated";
            break;
        }
    }
    ZSTD_freeDCtx(dc);
    if (fail) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX: zstd: %s", x->arch, fail);
        free(buf);
        return NULL;
    }
    buf[out.pos] = 0;
    *out_len = strnlen(buf, out.pos);  /* the PTX text may be NUL-padded */
    return buf;
}

/* An LZ4 block (CUDA 12's default, CUDA 13's --compress-mode=speed): a raw block of
 * exactly compressed_size bytes (the payload is padded beyond it) that decodes to the
 * entry header's uncompressed size, the PTX and its NUL. A raw block does not state its
 * own size, so the buffer grows with what partial decoding actually produces (a corrupt
 * header declaring gigabytes costs nothing until the data bears it out), bounded by the
 * declared size and MAX_PTX_BYTES; the full block is then decoded once more, strictly,
 * into exactly the declared size: any byte more or less, or a malformed block, fails. */
static char *decompress_lz4(const ws_fatbin_entry *x, size_t *out_len, char *err, size_t n)
{
    uint64_t csize = x->compressed_size ? x->compressed_size : x->payload_size;
    uint64_t want = x->uncompressed_size;
    if (csize > x->payload_size || csize > INT_MAX) {
        ws_seterr(err, n, "fatbinary: compressed size %llu exceeds the payload (%llu bytes)",
                  (unsigned long long)csize, (unsigned long long)x->payload_size);
        return NULL;
    }
    if (want == 0 || want > MAX_PTX_BYTES) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX: implausible uncompressed size %llu",
                  x->arch, (unsigned long long)want);
        return NULL;
    }
    const char *src = (const char *)x->payload;
    size_t cap = (size_t)(want < (1u << 20) ? want : (1u << 20));
    char *buf = malloc(cap + 1);
    const char *fail = NULL;
    int r = 0;
    while (buf) {
        r = LZ4_decompress_safe_partial(src, buf, (int)csize, (int)cap, (int)cap);
        if (r < 0) {
            fail = "the block is corrupt";
            break;
        }
        if ((size_t)r < cap) {   /* the whole block fitted: it is shorter than declared */
            fail = "it decompresses to less than its declared size";
            break;
        }
        if (cap == want)
            break;
        size_t ncap = cap * 2 < want ? cap * 2 : (size_t)want;
        char *nb = realloc(buf, ncap + 1);
        if (!nb) {
            fail = "out of memory";
            break;
        }
        buf = nb;
        cap = ncap;
    }
    if (!buf)
        fail = "out of memory";
    if (!fail) {
        r = LZ4_decompress_safe(src, buf, (int)csize, (int)want);
        if (r < 0)
            fail = "the block is corrupt or decompresses to more than its declared size";
        else if ((uint64_t)r != want)
            fail = "it decompresses to less than its declared size";
    }
    if (fail) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX: LZ4 (%llu bytes declared %llu): %s",
                  x->arch, (unsigned long long)csize, (unsigned long long)want, fail);
        free(buf);
        return NULL;
    }
    buf[want] = 0;
    *out_len = strnlen(buf, (size_t)want);  /* the PTX text is NUL-terminated */
    return buf;
}

static char *copy_plain(const ws_fatbin_entry *x, size_t *out_len, char *err, size_t n)
{
    size_t len = strnlen((const char *)x->payload, (size_t)x->payload_size);
    char *buf = malloc(len + 1);
    if (!buf) {
        ws_seterr(err, n, "fatbinary: out of memory (%zu bytes of PTX)", len);
        return NULL;
    }
    memcpy(buf, x->payload, len);
    buf[len] = 0;
    *out_len = len;
    return buf;
}

char *ws_fatbin_ptx(const void *data, size_t len, uint32_t max_arch, size_t *ptx_len,
                    uint32_t *arch, char *err, size_t n)
{
    size_t count = 0;
    if (ws_fatbin_entries(data, len, NULL, 0, &count, err, n))
        return NULL;
    ws_fatbin_entry *es = calloc(count ? count : 1, sizeof *es);
    if (!es) {
        ws_seterr(err, n, "fatbinary: out of memory");
        return NULL;
    }
    ws_fatbin_entries(data, len, es, count, &count, err, n);
    const ws_fatbin_entry *best = NULL, *lowest_ptx = NULL;
    uint32_t sass_arch = 0;
    for (size_t i = 0; i < count; i++) {
        const ws_fatbin_entry *x = &es[i];
        if (x->kind == WS_FATBIN_KIND_ELF && x->arch > sass_arch)
            sass_arch = x->arch;
        if (x->kind != WS_FATBIN_KIND_PTX)
            continue;
        if (!lowest_ptx || x->arch < lowest_ptx->arch)
            lowest_ptx = x;
        if (x->arch <= max_arch && (!best || x->arch > best->arch))
            best = x;
    }
    char *out = NULL;
    if (!best && lowest_ptx) {
        ws_seterr(err, n, "fatbinary: its PTX is for compute_%u, newer than warpsim accepts "
                  "(compute_%u); rebuild with -gencode arch=compute_%u,code=compute_%u",
                  lowest_ptx->arch, max_arch, max_arch, max_arch);
    } else if (!best && sass_arch) {
        ws_seterr(err, n, "fatbinary holds only SASS (sm_%u), no PTX; warpsim simulates PTX: "
                  "rebuild with -gencode arch=compute_%u,code=compute_%u",
                  sass_arch, sass_arch <= max_arch ? sass_arch : 75,
                  sass_arch <= max_arch ? sass_arch : 75);
    } else if (!best) {
        ws_seterr(err, n, "fatbinary: no PTX entry (%zu entries)", count);
    } else if (best->flags & WS_FATBIN_FLAG_ZSTD) {
        out = decompress_zstd(best, ptx_len, err, n);
    } else if (best->flags & WS_FATBIN_FLAG_LZ4) {
        out = decompress_lz4(best, ptx_len, err, n);
    } else if (best->compressed_size && best->compressed_size != best->uncompressed_size) {
        ws_seterr(err, n, "fatbinary: compute_%u PTX uses an unknown compression (flags "
                  "0x%llx); rebuild with nvcc -no-compress", best->arch,
                  (unsigned long long)best->flags);
    } else {
        out = copy_plain(best, ptx_len, err, n);
    }
    if (out && arch)
        *arch = best->arch;
    free(es);
    return out;
}
