/* fatbin.c - fatbinary containers: entries, PTX selection, zstd and LZ4 decompression,
 * registers per thread from the SASS (cubin) entries, and the pragmas that carry them. */
#include "cudart/fatbin.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#include "util/err.h"

#define CONTAINER_HDR 16u
#define ENTRY_HDR_MIN 64u           /* fields read below end at +64                 */
#define MAX_PAYLOAD_BYTES (1ull << 28)  /* 256 MiB: refuse absurd uncompressed sizes */

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

/* What an entry holds, for messages: "compute_75 PTX" or "sm_75 SASS". */
static const char *entry_label(const ws_fatbin_entry *x, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%u %s", x->kind == WS_FATBIN_KIND_PTX ? "compute" : "sm", x->arch,
             x->kind == WS_FATBIN_KIND_PTX ? "PTX" : "SASS");
    return buf;
}

/* Streams the frame into a buffer that grows with what zstd actually produces, so a
 * corrupt header that declares gigabytes costs nothing until the data bears it out; the
 * output may not exceed the size the frame or the entry header declares, nor
 * MAX_PAYLOAD_BYTES. *out_len gets the bytes decoded; a NUL follows them. */
static char *decompress_zstd(const ws_fatbin_entry *x, size_t *out_len, char *err, size_t n)
{
    char what[40];
    entry_label(x, what, sizeof what);
    uint64_t csize = x->compressed_size ? x->compressed_size : x->payload_size;
    if (csize > x->payload_size) {
        ws_seterr(err, n, "fatbinary: compressed size %llu exceeds the payload (%llu bytes)",
                  (unsigned long long)csize, (unsigned long long)x->payload_size);
        return NULL;
    }
    unsigned long long want = ZSTD_getFrameContentSize(x->payload, csize);
    if (want == ZSTD_CONTENTSIZE_ERROR) {
        ws_seterr(err, n, "fatbinary: %s is not a valid zstd frame", what);
        return NULL;
    }
    if (want == ZSTD_CONTENTSIZE_UNKNOWN)
        want = x->uncompressed_size;
    else if (x->uncompressed_size && want != x->uncompressed_size) {
        ws_seterr(err, n, "fatbinary: %s: the zstd frame holds %llu bytes but the "
                  "entry header says %llu", what, want,
                  (unsigned long long)x->uncompressed_size);
        return NULL;
    }
    if (want == 0 || want > MAX_PAYLOAD_BYTES) {
        ws_seterr(err, n, "fatbinary: %s: implausible uncompressed size %llu", what, want);
        return NULL;
    }
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t cap = (size_t)(want < (1u << 20) ? want : (1u << 20));
    char *buf = malloc(cap + 1);
    if (!dc || !buf) {
        ZSTD_freeDCtx(dc);
        free(buf);
        ws_seterr(err, n, "fatbinary: out of memory decompressing %s", what);
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
        ws_seterr(err, n, "fatbinary: %s: zstd: %s", what, fail);
        free(buf);
        return NULL;
    }
    buf[out.pos] = 0;
    *out_len = out.pos;
    return buf;
}

/* An LZ4 block (CUDA 12's default, CUDA 13's --compress-mode=speed): a raw block of
 * exactly compressed_size bytes (the payload is padded beyond it) that decodes to the
 * entry header's uncompressed size, the PTX and its NUL. A raw block does not state its
 * own size, so the buffer grows with what partial decoding actually produces (a corrupt
 * header declaring gigabytes costs nothing until the data bears it out), bounded by the
 * declared size and MAX_PAYLOAD_BYTES; the full block is then decoded once more, strictly,
 * into exactly the declared size: any byte more or less, or a malformed block, fails.
 * *out_len gets the declared size; a NUL follows it. */
static char *decompress_lz4(const ws_fatbin_entry *x, size_t *out_len, char *err, size_t n)
{
    char what[40];
    entry_label(x, what, sizeof what);
    uint64_t csize = x->compressed_size ? x->compressed_size : x->payload_size;
    uint64_t want = x->uncompressed_size;
    if (csize > x->payload_size || csize > INT_MAX) {
        ws_seterr(err, n, "fatbinary: compressed size %llu exceeds the payload (%llu bytes)",
                  (unsigned long long)csize, (unsigned long long)x->payload_size);
        return NULL;
    }
    if (want == 0 || want > MAX_PAYLOAD_BYTES) {
        ws_seterr(err, n, "fatbinary: %s: implausible uncompressed size %llu", what,
                  (unsigned long long)want);
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
        ws_seterr(err, n, "fatbinary: %s: LZ4 (%llu bytes declared %llu): %s", what,
                  (unsigned long long)csize, (unsigned long long)want, fail);
        free(buf);
        return NULL;
    }
    buf[want] = 0;
    *out_len = (size_t)want;
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
        if (out)
            *ptx_len = strnlen(out, *ptx_len);  /* the PTX text may be NUL-padded */
    } else if (best->flags & WS_FATBIN_FLAG_LZ4) {
        out = decompress_lz4(best, ptx_len, err, n);
        if (out)
            *ptx_len = strnlen(out, *ptx_len);  /* the PTX text ends with its NUL */
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

/* ---- registers per thread from SASS ----------------------------------------------------
 * A SASS entry is a cubin: a little-endian ELF64 file (EM_CUDA). Its `.nv.info` sections
 * (type SHT_CUDA_INFO) hold attribute records {u8 format, u8 attribute, ...}: formats 1, 2
 * and 3 are 4 bytes long, format 4 is {u16 size} followed by size bytes. Attribute 0x2f,
 * EIATTR_REGCOUNT, format 4, 8 bytes {u32 symbol index, u32 registers} gives the registers
 * per thread ptxas allocated to that function (measured: equal to `ptxas -v`'s "Used N
 * registers" for every kernel of the test programs, sm_75 to sm_120). The `.text.NAME`
 * section header's sh_info bits 24..31 hold the same count up to sm_89 but 0 from sm_90 on,
 * so they are not used. */
#define EM_CUDA 190u
#define SHT_SYMTAB 2u
#define SHT_CUDA_INFO 0x70000000u
#define EIATTR_REGCOUNT 0x2fu
#define ELF_HDR 64u
#define SHDR_MIN 64u
#define SYM_SIZE 24u

typedef struct {
    ws_fatbin_regs *v;
    size_t n, cap;
} regs_vec;

typedef struct {
    uint64_t off, size;
    uint32_t type, link;
} elf_sec;

void ws_fatbin_regs_free(ws_fatbin_regs *list, size_t count)
{
    for (size_t i = 0; list && i < count; i++)
        free(list[i].name);
    free(list);
}

/* Section i's header (the table itself is known to lie inside the image; its data is
 * checked by sec_in_image where it is read). */
static elf_sec elf_section(const uint8_t *elf, uint64_t shoff, uint32_t shentsize, uint32_t i)
{
    const uint8_t *h = elf + shoff + (uint64_t)i * shentsize;
    elf_sec s = {rd64(h + 24), rd64(h + 32), rd32(h + 4), rd32(h + 40)};
    return s;
}

static int sec_in_image(const elf_sec *s, size_t len)
{
    return s->off <= len && s->size <= len - s->off;
}

/* The NUL-terminated string at offset off of string table t, or NULL when it does not end
 * inside the table. */
static const char *elf_str(const uint8_t *elf, const elf_sec *t, uint64_t off)
{
    if (off >= t->size)
        return NULL;
    const char *s = (const char *)elf + t->off + off;
    return memchr(s, 0, (size_t)(t->size - off)) ? s : NULL;
}

/* Adds name -> regs; the same name twice must have the same count. */
static int regs_add(regs_vec *rv, const char *name, uint32_t regs, const char *what,
                    char *err, size_t n)
{
    for (size_t i = 0; i < rv->n; i++)
        if (!strcmp(rv->v[i].name, name)) {
            if (rv->v[i].regs == regs)
                return 0;
            ws_seterr(err, n, "fatbinary: %s: two register counts for %s (%u and %u)", what,
                      name, rv->v[i].regs, regs);
            return -1;
        }
    if (rv->n == rv->cap) {
        size_t cap = rv->cap ? rv->cap * 2 : 16;
        ws_fatbin_regs *v = realloc(rv->v, cap * sizeof *v);
        if (!v) {
            ws_seterr(err, n, "fatbinary: out of memory");
            return -1;
        }
        rv->v = v;
        rv->cap = cap;
    }
    size_t l = strlen(name);
    char *c = malloc(l + 1);
    if (!c) {
        ws_seterr(err, n, "fatbinary: out of memory");
        return -1;
    }
    memcpy(c, name, l + 1);
    rv->v[rv->n].name = c;
    rv->v[rv->n].regs = regs;
    rv->n++;
    return 0;
}

/* The EIATTR_REGCOUNT records of one .nv.info section s (its sh_link: the symbol table). */
static int info_regs(const uint8_t *elf, size_t len, const elf_sec *s, uint64_t shoff,
                     uint32_t shentsize, uint32_t shnum, regs_vec *rv, const char *what,
                     char *err, size_t n)
{
    if (!sec_in_image(s, len)) {
        ws_seterr(err, n, "fatbinary: %s: .nv.info section outside the cubin", what);
        return -1;
    }
    elf_sec sym = {0, 0, 0, 0}, str = {0, 0, 0, 0};
    int have_sym = 0;
    const uint8_t *p = elf + s->off, *end = p + s->size;
    while (p < end) {
        if (end - p < 4) {
            ws_seterr(err, n, "fatbinary: %s: .nv.info attribute truncated", what);
            return -1;
        }
        uint8_t fmt = p[0], attr = p[1];
        size_t rec = 4;
        if (fmt == 4)
            rec += rd16(p + 2);
        else if (fmt < 1 || fmt > 3) {
            ws_seterr(err, n, "fatbinary: %s: .nv.info attribute of unknown format %u at "
                      "offset %zu", what, fmt, (size_t)(p - elf));
            return -1;
        }
        if (rec > (size_t)(end - p)) {
            ws_seterr(err, n, "fatbinary: %s: .nv.info attribute 0x%02x (%zu bytes) runs past "
                      "its section", what, attr, rec);
            return -1;
        }
        if (attr == EIATTR_REGCOUNT) {
            if (fmt != 4 || rec != 12) {
                ws_seterr(err, n, "fatbinary: %s: malformed EIATTR_REGCOUNT (format %u, %zu "
                          "bytes)", what, fmt, rec);
                return -1;
            }
            if (!have_sym) {   /* the symbol table and its strings, checked once */
                int ok = s->link > 0 && s->link < shnum;
                if (ok) {
                    sym = elf_section(elf, shoff, shentsize, s->link);
                    ok = sym.type == SHT_SYMTAB && sec_in_image(&sym, len) && sym.link > 0 &&
                         sym.link < shnum;
                }
                if (ok) {
                    str = elf_section(elf, shoff, shentsize, sym.link);
                    ok = sec_in_image(&str, len);
                }
                if (!ok) {
                    ws_seterr(err, n, "fatbinary: %s: .nv.info without a valid symbol table "
                              "(link %u)", what, s->link);
                    return -1;
                }
                have_sym = 1;
            }
            uint32_t si = rd32(p + 4), regs = rd32(p + 8);
            const char *name = NULL;
            if (si < sym.size / SYM_SIZE)
                name = elf_str(elf, &str, rd32(elf + sym.off + (uint64_t)si * SYM_SIZE));
            if (!name || !name[0]) {
                ws_seterr(err, n, "fatbinary: %s: EIATTR_REGCOUNT names symbol %u, which has no "
                          "name in the cubin", what, si);
                return -1;
            }
            if (regs == 0 || regs > WS_FATBIN_MAX_REGS) {
                ws_seterr(err, n, "fatbinary: %s: implausible register count %u for %s", what,
                          regs, name);
                return -1;
            }
            if (regs_add(rv, name, regs, what, err, n))
                return -1;
        }
        p += rec;
    }
    return 0;
}

/* Adds the register counts of the cubin [elf, elf + len) to rv. */
static int cubin_regs(const uint8_t *elf, size_t len, regs_vec *rv, const char *what,
                      char *err, size_t n)
{
    if (len < ELF_HDR || memcmp(elf, "\x7f" "ELF", 4)) {
        ws_seterr(err, n, "fatbinary: %s is not an ELF file (%zu bytes)", what, len);
        return -1;
    }
    if (elf[4] != 2 || elf[5] != 1 || rd16(elf + 18) != EM_CUDA) {
        ws_seterr(err, n, "fatbinary: %s is not a little-endian ELF64 cubin (class %u, data "
                  "%u, machine %u)", what, elf[4], elf[5], rd16(elf + 18));
        return -1;
    }
    uint64_t shoff = rd64(elf + 40);
    uint32_t shentsize = rd16(elf + 58), shnum = rd16(elf + 60), shstrndx = rd16(elf + 62);
    if (shnum == 0 && shoff == 0)
        return 0;   /* no sections, no counts */
    if (shnum == 0 || shentsize < SHDR_MIN || shoff > len ||
        (uint64_t)shnum * shentsize > len - shoff || shstrndx >= shnum) {
        ws_seterr(err, n, "fatbinary: %s: corrupt section header table (offset %llu, %u "
                  "sections of %u bytes, names in %u; %zu bytes)", what,
                  (unsigned long long)shoff, shnum, shentsize, shstrndx, len);
        return -1;
    }
    elf_sec names = elf_section(elf, shoff, shentsize, shstrndx);
    if (!sec_in_image(&names, len)) {
        ws_seterr(err, n, "fatbinary: %s: section name table outside the cubin", what);
        return -1;
    }
    for (uint32_t i = 1; i < shnum; i++) {
        elf_sec s = elf_section(elf, shoff, shentsize, i);
        if (s.type != SHT_CUDA_INFO)
            continue;
        const char *name = elf_str(elf, &names, rd32(elf + shoff + (uint64_t)i * shentsize));
        if (!name) {
            ws_seterr(err, n, "fatbinary: %s: section %u has no name", what, i);
            return -1;
        }
        if (strncmp(name, ".nv.info", 8) || (name[8] != 0 && name[8] != '.'))
            continue;
        if (info_regs(elf, len, &s, shoff, shentsize, shnum, rv, what, err, n))
            return -1;
    }
    return 0;
}

int ws_cubin_regs(const void *elf, size_t len, ws_fatbin_regs **list, size_t *count,
                  char *err, size_t n)
{
    regs_vec rv = {NULL, 0, 0};
    *list = NULL;
    *count = 0;
    if (!elf) {
        ws_seterr(err, n, "fatbinary: NULL cubin");
        return -1;
    }
    if (cubin_regs(elf, len, &rv, "cubin", err, n)) {
        ws_fatbin_regs_free(rv.v, rv.n);
        return -1;
    }
    *list = rv.v;
    *count = rv.n;
    return 0;
}

int ws_fatbin_sass_regs(const void *data, size_t len, ws_fatbin_regs **list, size_t *count,
                        uint32_t *arch, char *err, size_t n)
{
    size_t ne = 0;
    *list = NULL;
    *count = 0;
    if (arch)
        *arch = 0;
    if (ws_fatbin_entries(data, len, NULL, 0, &ne, err, n))
        return -1;
    ws_fatbin_entry *es = calloc(ne ? ne : 1, sizeof *es);
    if (!es) {
        ws_seterr(err, n, "fatbinary: out of memory");
        return -1;
    }
    ws_fatbin_entries(data, len, es, ne, &ne, err, n);
    uint32_t sm = 0;
    for (size_t i = 0; i < ne; i++)
        if (es[i].kind == WS_FATBIN_KIND_ELF && (!sm || es[i].arch < sm))
            sm = es[i].arch;
    regs_vec rv = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; sm && i < ne && !rc; i++) {
        const ws_fatbin_entry *x = &es[i];
        if (x->kind != WS_FATBIN_KIND_ELF || x->arch != sm)
            continue;
        char what[40];
        entry_label(x, what, sizeof what);
        char *buf = NULL;
        const uint8_t *elf = x->payload;
        size_t elen = (size_t)x->payload_size;
        if (x->flags & WS_FATBIN_FLAG_ZSTD) {
            elf = (const uint8_t *)(buf = decompress_zstd(x, &elen, err, n));
        } else if (x->flags & WS_FATBIN_FLAG_LZ4) {
            elf = (const uint8_t *)(buf = decompress_lz4(x, &elen, err, n));
        } else if (x->compressed_size && x->compressed_size != x->uncompressed_size) {
            ws_seterr(err, n, "fatbinary: %s uses an unknown compression (flags 0x%llx)", what,
                      (unsigned long long)x->flags);
            elf = NULL;
        }
        rc = !elf || cubin_regs(elf, elen, &rv, what, err, n) ? -1 : 0;
        free(buf);
    }
    free(es);
    if (rc) {
        ws_fatbin_regs_free(rv.v, rv.n);
        return -1;
    }
    *list = rv.v;
    *count = rv.n;
    if (arch)
        *arch = sm;
    return 0;
}

/* ---- the pragmas ---------------------------------------------------------------------- */
typedef struct {
    const char *s;
    size_t len;
} ptx_name;

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%';
}

static int name_cmp(const void *a, const void *b)
{
    const ptx_name *x = a, *y = b;
    size_t l = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, l);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

/* The names after the .entry and .func directives of the NUL-terminated PTX text, outside
 * comments and strings (for .func, after its return parameter list), sorted; NULL when
 * out of memory. */
static ptx_name *ptx_function_names(const char *t, size_t *count)
{
    size_t n = 0, cap = 16;
    ptx_name *v = malloc(cap * sizeof *v);
    if (!v)
        return NULL;
    const char *p = t;
    while (*p) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
            continue;
        }
        if (*p == '"') {
            for (p++; *p && *p != '"' && *p != '\n'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p == '"')
                p++;
            continue;
        }
        size_t kw = 0;
        if (*p == '.' && (p == t || !ident_char(p[-1]))) {
            if (!strncmp(p, ".entry", 6) && !ident_char(p[6]))
                kw = 6;
            else if (!strncmp(p, ".func", 5) && !ident_char(p[5]))
                kw = 5;
        }
        if (!kw) {
            p++;
            continue;
        }
        const char *q = skip_blank(p + kw);
        if (kw == 5 && *q == '(') {   /* .func (return parameters) NAME */
            while (*q && *q != ')')
                q++;
            q = skip_blank(*q ? q + 1 : q);
        }
        const char *s = q;
        while (ident_char(*q))
            q++;
        if (q > s) {
            if (n == cap) {
                ptx_name *nv = realloc(v, (cap *= 2) * sizeof *v);
                if (!nv) {
                    free(v);
                    return NULL;
                }
                v = nv;
            }
            v[n].s = s;
            v[n].len = (size_t)(q - s);
            n++;
        }
        p = q > p + kw ? q : p + kw;
    }
    qsort(v, n, sizeof *v, name_cmp);
    *count = n;
    return v;
}

char *ws_fatbin_ptx_add_regs(const char *ptx, size_t len, const ws_fatbin_regs *list,
                             size_t count, uint32_t sm, size_t *out_len, size_t *added,
                             char *err, size_t n)
{
    *added = 0;
    *out_len = 0;
    if (!ptx || !count || strstr(ptx, "warpsim.regs"))
        return NULL;
    size_t nn = 0;
    ptx_name *names = ptx_function_names(ptx, &nn);
    if (!names) {
        ws_seterr(err, n, "fatbinary: out of memory");
        return NULL;
    }
    static const char head[] = "\n// warpsim.regs: registers per thread from the "
                               "fatbinary's sm_%u SASS\n";
    static const char line[] = ".pragma \"warpsim.regs %s %u\";\n";
    char *keep = calloc(count, 1);
    size_t extra = sizeof head + 16;
    for (size_t i = 0; keep && i < count; i++) {
        ptx_name key = {list[i].name, strlen(list[i].name)};
        if (list[i].regs && list[i].regs <= WS_FATBIN_MAX_REGS &&
            bsearch(&key, names, nn, sizeof *names, name_cmp)) {
            keep[i] = 1;
            extra += sizeof line + key.len + 16;
            ++*added;
        }
    }
    free(names);
    char *out = NULL;
    if (keep && *added)
        out = malloc(len + extra);
    if (!keep || (*added && !out)) {
        ws_seterr(err, n, "fatbinary: out of memory");
        *added = 0;
    }
    if (out) {
        memcpy(out, ptx, len);
        size_t o = len;
        o += (size_t)snprintf(out + o, len + extra - o, head, sm);
        for (size_t i = 0; i < count; i++)
            if (keep[i])
                o += (size_t)snprintf(out + o, len + extra - o, line, list[i].name,
                                      list[i].regs);
        *out_len = o;
    }
    free(keep);
    return out;
}
