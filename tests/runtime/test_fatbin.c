/* test_fatbin.c - the fatbinary reader (src/cudart/fatbin.c) on committed fatbinaries:
 * the .nv_fatbin sections of tests/runtime/rt_vecadd.cu built by CUDA 13.0's nvcc
 * (`objcopy -O binary --only-section=.nv_fatbin`):
 *   vecadd_zstd.fatbin   -gencode arch=compute_75,code=compute_75 (PTX, zstd: the default)
 *   vecadd_plain.fatbin  the same with -no-compress
 *   vecadd_sass.fatbin   -gencode arch=compute_75,code=sm_75 (SASS only)
 *   vecadd_multi.fatbin  compute_75 and compute_86 PTX, sm_80 SASS (two entries)
 *   vecadd_lz4.fatbin    -gencode arch=compute_75,code=compute_75 --compress-mode=speed
 *                        (PTX as an LZ4 block, flags 0x2011: the format CUDA 12's nvcc
 *                        emits by default)
 *   regs2*.fatbin        tests/runtime/data/regs2.cu, two kernels, by gen_regs2.sh there:
 *                        sm_86 SASS, sm_75 SASS and compute_75 PTX, with the SASS stored
 *                        plainly (regs2), zstd-compressed (regs2_zstd) and as LZ4 blocks
 *                        (regs2_lz4); the register counts below are its `ptxas -v` lines
 *                        (regs2_ptxas.txt): sm_75 big 30, small 8; sm_86 big 31, small 8.
 *                        vecadd's kernel: 12 registers on sm_75 and sm_80 (`ptxas -v
 *                        --gpu-name sm_75` / sm_80 of rt_vecadd.cu's PTX).
 * e.g. nvcc -cudart shared -gencode arch=compute_75,code=compute_75 --compress-mode=speed
 *        -o v tests/runtime/rt_vecadd.cu &&
 *      objcopy -O binary --only-section=.nv_fatbin v tests/runtime/data/vecadd_lz4.fatbin
 * and on corrupt and truncated copies of them: every bad image gives a message, none
 * crashes (the sanitizer build checks no byte outside the image is read). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include <cmocka.h>

#include "cudart/fatbin.h"
#include "gpu/sim.h"
#include "ptx/ir.h"
#include "util/config.h"
#include "util/err.h"

#define KERNEL "_Z6vecaddPKfS0_Pfi"

static uint8_t *load(const char *name, size_t *len)
{
    char path[512], err[300];
    snprintf(path, sizeof path, "%s/%s", WS_RT_DATA, name);
    uint8_t *p = (uint8_t *)ws_read_file(path, len, 1 << 20, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    return p;
}

/* A private copy of exactly len bytes, so reading past it is an ASan error. */
static uint8_t *dup_n(const uint8_t *p, size_t len)
{
    uint8_t *q = malloc(len ? len : 1);
    assert_non_null(q);
    memcpy(q, p, len);
    return q;
}

static void ptx_loads(const char *ptx, size_t len)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *m = NULL;
    char err[512] = "";
    assert_int_equal(ws_module_load(s, ptx, len, "fatbin", &m, err, sizeof err), WS_OK);
    assert_true(ws_module_kernel(m, KERNEL) >= 0);
    ws_module_unload(s, m);
    ws_sim_destroy(s);
}

static void test_zstd(void **st)
{
    (void)st;
    size_t len, n = 0;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    ws_fatbin_entry e[4];
    char err[300] = "";
    assert_int_equal(ws_fatbin_entries(img, len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].kind, WS_FATBIN_KIND_PTX);
    assert_int_equal(e[0].arch, 75);
    assert_int_equal(e[0].ptx_major, 9);
    assert_true(e[0].flags & WS_FATBIN_FLAG_ZSTD);
    assert_memory_equal(e[0].payload, "\x28\xb5\x2f\xfd", 4);   /* zstd frame magic */
    size_t plen = 0;
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);
    assert_int_equal(strlen(ptx), plen);
    assert_int_equal(plen, e[0].uncompressed_size ? strnlen(ptx, e[0].uncompressed_size) : plen);
    assert_non_null(strstr(ptx, ".entry " KERNEL));
    ptx_loads(ptx, plen);

    /* the uncompressed build holds the same PTX text */
    size_t len2;
    uint8_t *img2 = load("vecadd_plain.fatbin", &len2);
    size_t plen2 = 0;
    char *ptx2 = ws_fatbin_ptx(img2, len2, WS_FATBIN_MAX_ARCH, &plen2, NULL, err, sizeof err);
    assert_non_null(ptx2);
    assert_non_null(strstr(ptx2, ".entry " KERNEL));
    assert_string_equal(ptx, ptx2);
    free(ptx);
    free(ptx2);
    free(img);
    free(img2);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* LZ4 (CUDA 12's default compression): the same PTX text as the uncompressed build. */
static void test_lz4(void **st)
{
    (void)st;
    size_t len, n = 0;
    uint8_t *img = load("vecadd_lz4.fatbin", &len);
    ws_fatbin_entry e[4];
    char err[300] = "";
    assert_int_equal(ws_fatbin_entries(img, len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].kind, WS_FATBIN_KIND_PTX);
    assert_int_equal(e[0].arch, 75);
    assert_int_equal(e[0].flags, 0x2011);
    assert_true(e[0].compressed_size < e[0].payload_size);   /* the payload is padded */
    assert_true(e[0].uncompressed_size > e[0].compressed_size);
    size_t plen = 0, plen2 = 0;
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);
    assert_int_equal(strlen(ptx), plen);
    assert_int_equal(plen + 1, e[0].uncompressed_size);   /* the text and its NUL */
    size_t len2;
    uint8_t *img2 = load("vecadd_plain.fatbin", &len2);
    char *ptx2 = ws_fatbin_ptx(img2, len2, WS_FATBIN_MAX_ARCH, &plen2, NULL, err, sizeof err);
    assert_non_null(ptx2);
    assert_string_equal(ptx, ptx2);
    ptx_loads(ptx, plen);
    free(ptx);
    free(ptx2);
    free(img);
    free(img2);
}

/* Corrupt LZ4 entries: each a message naming LZ4, never a crash, and no allocation of
 * what a header claims beyond what the block actually produces. */
static void test_lz4_corrupt(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_lz4.fatbin", &len);
    const size_t e = 32, pay = e + 80;   /* the entry of the second container; its block */
    uint32_t csz = (uint32_t)img[e + 16] | (uint32_t)img[e + 17] << 8;
    uint32_t usz = (uint32_t)img[e + 56] | (uint32_t)img[e + 57] << 8;
    assert_int_equal(img[e + 40 + 1], 0x20);
    static const struct { int which; uint32_t value; const char *want; } cases[] = {
        {56, 0, "less than its declared size"},            /* usz + 1 */
        {57, 0, "more than its declared size"},            /* usz - 1 */
        {58, 0x40000000u, "implausible"},                  /* 1 GiB declared: refused */
        {58, 200u << 20, "less than its declared size"},   /* 200 MiB declared, ~1 KB real */
        {16, 0, "exceeds the payload"},                    /* compressed size > payload */
        {17, 0, "LZ4"},                                    /* block cut short by 40 bytes */
        {18, 0, "LZ4"},                                    /* block 1 byte longer (padding) */
    };
    char err[300];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t *q = dup_n(img, len);
        switch (cases[k].which) {
        case 56: put_le32(q + e + 56, usz + 1); break;
        case 57: put_le32(q + e + 56, usz - 1); break;
        case 58: put_le32(q + e + 56, cases[k].value); break;
        case 16: put_le32(q + e + 16, 0x10000); break;
        case 17: put_le32(q + e + 16, csz - 40); break;
        case 18: put_le32(q + e + 16, csz + 1); break;
        }
        err[0] = 0;
        char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (ptx)
            fail_msg("case %zu decoded", k);
        if (!strstr(err, cases[k].want))
            fail_msg("case %zu: '%s' lacks '%s'", k, err, cases[k].want);
        free(q);
    }
    /* damaged block bytes: an LZ4 error, or (if LZ4 cannot tell) bounded text */
    for (size_t at = pay; at < pay + csz; at += 7) {
        uint8_t *q = dup_n(img, len);
        q[at] ^= 0xa5;
        err[0] = 0;
        char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (ptx)
            assert_true(strlen(ptx) == plen && plen < usz);
        else
            assert_non_null(strstr(err, "LZ4"));
        free(ptx);
        free(q);
    }
    free(img);
}

static void test_container_size(void **st)
{
    (void)st;
    size_t len;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    char err[300] = "";
    /* the section starts with an empty container, then the real one */
    assert_int_equal(ws_fatbin_container_size(img, err, sizeof err), 16);
    size_t real = ws_fatbin_container_size(img + 16, err, sizeof err);
    assert_true(real > 16 && 16 + real <= len);
    size_t plen;
    char *ptx = ws_fatbin_ptx(img + 16, real, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    assert_non_null(ptx);
    free(ptx);
    uint8_t junk[16] = {1, 2, 3, 4};
    assert_int_equal(ws_fatbin_container_size(junk, err, sizeof err), 0);
    assert_non_null(strstr(err, "magic"));
    free(img);
}

static void test_sass_only(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_sass.fatbin", &len);
    char err[300] = "";
    assert_null(ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "only SASS (sm_75)"));
    assert_non_null(strstr(err, "-gencode arch=compute_75,code=compute_75"));
    free(img);
}

static void test_arch_choice(void **st)
{
    (void)st;
    size_t len, plen, n = 0;
    uint8_t *img = load("vecadd_multi.fatbin", &len);
    char err[300] = "";
    ws_fatbin_entry e[8];
    assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);   /* SASS entries come in pairs */
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 86);   /* the highest PTX */
    free(ptx);
    ptx = ws_fatbin_ptx(img, len, 80, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);   /* the highest at or below the limit */
    free(ptx);
    assert_null(ws_fatbin_ptx(img, len, 70, &plen, &arch, err, sizeof err));
    assert_non_null(strstr(err, "newer than warpsim accepts"));
    free(img);
}

/* Every prefix of every image: an error or a valid result, never a read outside it. */
static void test_truncated(void **st)
{
    (void)st;
    static const char *const names[] = {"vecadd_zstd.fatbin", "vecadd_plain.fatbin",
                                        "vecadd_sass.fatbin", "vecadd_multi.fatbin",
                                        "vecadd_lz4.fatbin", "regs2.fatbin",
                                        "regs2_zstd.fatbin", "regs2_lz4.fatbin"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t len;
        uint8_t *img = load(names[k], &len);
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *q = dup_n(img, cut);
            char err[300] = "";
            size_t plen;
            char *ptx = ws_fatbin_ptx(q, cut, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
            if (cut + 8 < len) {   /* only trailing padding may be cut off */
                assert_null(ptx);
                assert_true(err[0] != 0);
            }
            free(ptx);
            free(q);
        }
        free(img);
    }
}

static void test_corrupt(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    char err[300] = "";
    const size_t c = 16, e = 32;   /* second container; its first entry */

    uint8_t *q = dup_n(img, len);
    q[c] ^= 0xff;   /* container magic */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "bad container magic"));
    free(q);

    q = dup_n(img, len);
    q[e + 8 + 5] = 0x7f;   /* entry payload size far beyond the image */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "truncated or corrupt"));
    free(q);

    q = dup_n(img, len);
    q[e + 4] = 8;   /* entry header smaller than its fields */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "corrupt"));
    free(q);

    q = dup_n(img, len);
    q[e + 40 + 1] = 0x20;   /* flags: LZ4 instead of zstd: the zstd frame is no LZ4 block */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "LZ4"));
    free(q);

    q = dup_n(img, len);
    q[e + 40 + 1] = 0x01;   /* an unknown compression flag */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "unknown compression"));
    free(q);

    q = dup_n(img, len);
    for (size_t i = e + 80 + 12; i < e + 80 + 60; i++)   /* damage the zstd stream */
        q[i] ^= 0x5a;
    char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    if (ptx)   /* zstd may decode garbage without noticing; it is then bounded text */
        assert_true(strlen(ptx) == plen);
    else
        assert_non_null(strstr(err, "zstd"));
    free(ptx);
    free(q);

    q = dup_n(img, len);
    q[e + 56 + 3] ^= 0x40;   /* header's uncompressed size disagrees with the zstd frame */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "entry header says"));
    free(q);

    /* The same frame without a content size (descriptor 0x00 and a 1 KiB window instead of
     * 0x60 and the 2-byte size): only the entry header's size bounds the output, and the
     * streaming decoder must hold the output to it. */
    static const struct { uint32_t hdr; const char *want; } unk[] = {
        {0x400003e1u, "implausible"},             /* 1 GiB declared: refused up front */
        {500u, "more than its declared size"},    /* the frame holds 993 bytes */
        {993u, NULL},                             /* exact: decodes */
    };
    for (size_t k = 0; k < sizeof unk / sizeof unk[0]; k++) {
        q = dup_n(img, len);
        uint8_t *f = q + e + 80;                   /* the zstd frame */
        assert_int_equal(f[4], 0x60);
        f[4] = 0x00;
        f[5] = 0x00;
        memmove(f + 6, f + 7, len - (size_t)(f + 7 - q));
        uint32_t csz = (uint32_t)q[e + 16] | (uint32_t)q[e + 17] << 8;
        put_le32(q + e + 16, csz - 1);
        put_le32(q + e + 56, unk[k].hdr);
        ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (unk[k].want) {
            assert_null(ptx);
            assert_non_null(strstr(err, unk[k].want));
        } else {
            assert_non_null(ptx);
            assert_non_null(strstr(ptx, ".entry"));
        }
        free(ptx);
        free(q);
    }

    q = dup_n(img, len);
    q[e] = 3;   /* an entry kind other than PTX or ELF: no PTX left */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no PTX"));
    free(q);
    free(img);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* A 10 MB fatbinary (999 SASS entries of 10 kB, then 1 MB of PTX text) is read in well
 * under a second (issue 15: < 1 s). */
static void test_large(void **st)
{
    (void)st;
    const size_t n_sass = 999, sass = 10000, ptx = 1 << 20, eh = 80;
    size_t body = n_sass * (eh + sass) + eh + ptx, len = 16 + body;
    uint8_t *img = calloc(1, len);
    assert_non_null(img);
    put32(img, WS_FATBIN_MAGIC);
    put16(img + 4, 1);
    put16(img + 6, 16);
    put64(img + 8, body);
    uint8_t *e = img + 16;
    for (size_t i = 0; i <= n_sass; i++) {
        int is_ptx = i == n_sass;
        put16(e, is_ptx ? WS_FATBIN_KIND_PTX : WS_FATBIN_KIND_ELF);
        put32(e + 4, (uint32_t)eh);
        put64(e + 8, is_ptx ? ptx : sass);
        put32(e + 28, 75);
        put64(e + 40, 0x11);
        e += eh;
        if (is_ptx) {
            static const char head[] = ".version 9.0\n.target sm_75\n.address_size 64\n";
            memset(e, '\n', ptx);
            memcpy(e, head, sizeof head - 1);
        }
        e += is_ptx ? ptx : sass;
    }
    assert_int_equal((size_t)(e - img), len);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char err[300] = "";
    size_t plen = 0;
    char *text = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(text);
    assert_int_equal(plen, ptx);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(s < 1.0);
    free(text);
    free(img);
}

/* ---- registers per thread from SASS ----------------------------------------------------- */
#define BIG "_Z3bigPKfPfi"
#define SMALL "_Z5smallPf"

/* The registers of name in list, 0 when absent. */
static uint32_t regs_of(const ws_fatbin_regs *list, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(list[i].name, name))
            return list[i].regs;
    return 0;
}

/* The lowest SASS architecture wins (sm_75 over sm_86, whatever their order in the image),
 * whether the cubins are stored plainly or compressed. */
static void test_sass_regs(void **st)
{
    (void)st;
    static const char *const names[] = {"regs2.fatbin", "regs2_zstd.fatbin",
                                        "regs2_lz4.fatbin"};
    static const uint64_t flag[] = {0, WS_FATBIN_FLAG_ZSTD, WS_FATBIN_FLAG_LZ4};
    for (size_t k = 0; k < 3; k++) {
        size_t len, n = 0, count = 0;
        uint8_t *img = load(names[k], &len);
        ws_fatbin_entry e[8];
        char err[300] = "";
        assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
        assert_int_equal(n, 5);   /* two SASS entries per architecture, one PTX */
        assert_int_equal(e[0].kind, WS_FATBIN_KIND_ELF);
        assert_int_equal(e[0].arch, 86);   /* sm_86 comes first */
        for (size_t i = 0; i < n; i++)
            if (e[i].kind == WS_FATBIN_KIND_ELF)
                assert_int_equal(e[i].flags & (WS_FATBIN_FLAG_ZSTD | WS_FATBIN_FLAG_LZ4),
                                 flag[k]);
        ws_fatbin_regs *r = NULL;
        uint32_t arch = 0;
        if (ws_fatbin_sass_regs(img, len, &r, &count, &arch, err, sizeof err))
            fail_msg("%s: %s", names[k], err);
        assert_int_equal(arch, 75);
        assert_int_equal(count, 2);
        assert_int_equal(regs_of(r, count, BIG), 30);
        assert_int_equal(regs_of(r, count, SMALL), 8);
        ws_fatbin_regs_free(r, count);
        free(img);
    }
    /* vecadd: sm_75 only; sm_80 beside compute_75 and compute_86 PTX; no SASS */
    static const struct { const char *file; uint32_t arch; size_t count; } v[] = {
        {"vecadd_sass.fatbin", 75, 1}, {"vecadd_multi.fatbin", 80, 1},
        {"vecadd_zstd.fatbin", 0, 0},  {"vecadd_lz4.fatbin", 0, 0},
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        size_t len, count = 9;
        uint8_t *img = load(v[k].file, &len);
        ws_fatbin_regs *r = NULL;
        uint32_t arch = 9;
        char err[300] = "";
        assert_int_equal(ws_fatbin_sass_regs(img, len, &r, &count, &arch, err, sizeof err), 0);
        assert_int_equal(arch, v[k].arch);
        assert_int_equal(count, v[k].count);
        if (count)
            assert_int_equal(regs_of(r, count, KERNEL), 12);
        ws_fatbin_regs_free(r, count);
        free(img);
    }
}

/* The code-carrying sm_<arch> cubin of regs2.fatbin (the larger of the two entries). */
static const uint8_t *regs2_cubin(const uint8_t *img, size_t len, uint32_t arch, size_t *clen)
{
    ws_fatbin_entry e[8];
    size_t n = 0;
    char err[300] = "";
    assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
    const ws_fatbin_entry *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (e[i].kind == WS_FATBIN_KIND_ELF && e[i].arch == arch &&
            (!best || e[i].payload_size > best->payload_size))
            best = &e[i];
    assert_non_null(best);
    *clen = (size_t)best->payload_size;
    return best->payload;
}

/* One cubin at a time: sm_86's counts differ from sm_75's; the code-less entry has none. */
static void test_cubin_regs(void **st)
{
    (void)st;
    size_t len, clen, count = 0;
    uint8_t *img = load("regs2.fatbin", &len);
    char err[300] = "";
    ws_fatbin_regs *r = NULL;
    const uint8_t *c86 = regs2_cubin(img, len, 86, &clen);
    assert_int_equal(ws_cubin_regs(c86, clen, &r, &count, err, sizeof err), 0);
    assert_int_equal(count, 2);
    assert_int_equal(regs_of(r, count, BIG), 31);
    assert_int_equal(regs_of(r, count, SMALL), 8);
    ws_fatbin_regs_free(r, count);
    ws_fatbin_entry e[8];
    size_t n = 0;
    assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
    assert_int_equal(e[1].arch, 75);   /* sm_75's code-less cubin */
    assert_true(e[1].payload_size < 2000);
    assert_int_equal(ws_cubin_regs(e[1].payload, (size_t)e[1].payload_size, &r, &count, err,
                                   sizeof err), 0);
    assert_int_equal(count, 0);
    ws_fatbin_regs_free(r, count);
    free(img);
}

/* Offsets inside a cubin, found the way a reader would (the test's own walk). */
typedef struct {
    size_t shoff, shnum, shent, info_hdr, info_off, info_size, regcount;
} cubin_map;

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static cubin_map map_cubin(const uint8_t *c)
{
    cubin_map m = {0};
    m.shoff = (size_t)le64(c + 40);
    m.shent = (size_t)(c[58] | c[59] << 8);
    m.shnum = (size_t)(c[60] | c[61] << 8);
    size_t strndx = (size_t)(c[62] | c[63] << 8);
    const uint8_t *names = c + le64(c + m.shoff + strndx * m.shent + 24);
    for (size_t i = 1; i < m.shnum; i++) {
        const uint8_t *h = c + m.shoff + i * m.shent;
        if (!strcmp((const char *)names + le32(h), ".nv.info")) {
            m.info_hdr = m.shoff + i * m.shent;
            m.info_off = (size_t)le64(h + 24);
            m.info_size = (size_t)le64(h + 32);
        }
    }
    assert_true(m.info_off != 0);
    for (size_t p = m.info_off; p < m.info_off + m.info_size;) {
        if (c[p + 1] == 0x2f && !m.regcount)
            m.regcount = p;
        p += c[p] == 4 ? 4u + (c[p + 2] | c[p + 3] << 8) : 4u;
    }
    assert_true(m.regcount != 0);
    return m;
}

/* Corrupt and truncated cubins: each a message, never a crash or a read outside. */
static void test_cubin_corrupt(void **st)
{
    (void)st;
    size_t len, clen, count;
    uint8_t *img = load("regs2.fatbin", &len);
    const uint8_t *c75 = regs2_cubin(img, len, 75, &clen);
    cubin_map m = map_cubin(c75);
    size_t rc = m.regcount;
    assert_int_equal(c75[rc], 4);   /* EIATTR_REGCOUNT: format 4, 8 bytes */
    assert_int_equal(c75[rc + 2], 8);
    static const struct { int what; const char *want; } cases[] = {
        {0, "not an ELF file"},
        {1, "not a little-endian ELF64 cubin"},   /* ELFCLASS32 */
        {2, "not a little-endian ELF64 cubin"},   /* machine 62 (x86-64) */
        {3, "corrupt section header table"},      /* e_shoff past the end */
        {4, "corrupt section header table"},      /* 65535 sections */
        {5, "corrupt section header table"},      /* e_shentsize 40 */
        {6, "corrupt section header table"},      /* names in section 500 */
        {7, ".nv.info section outside"},          /* its offset far away */
        {8, ".nv.info section outside"},          /* its size past the end */
        {9, "runs past its section"},             /* REGCOUNT claims 4000 bytes */
        {10, "unknown format 9"},
        {11, "names symbol 4096"},                /* symbol index out of the table */
        {12, "implausible register count 0"},
        {13, "implausible register count 300"},
        {14, "without a valid symbol table"},     /* sh_link 0 */
        {15, "without a valid symbol table"},     /* sh_link to itself (not SYMTAB) */
        {16, "two register counts"},              /* the second record names the first's symbol */
        {17, "malformed EIATTR_REGCOUNT"},        /* format 3 */
        {18, "attribute truncated"},              /* the section ends 2 bytes into a record */
    };
    char err[300];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t *q = dup_n(c75, clen);
        switch (cases[k].what) {
        case 0: q[1] = 'X'; break;
        case 1: q[4] = 1; break;
        case 2: q[18] = 62; break;
        case 3: put64(q + 40, clen - 10); break;
        case 4: put16(q + 60, 0xffff); break;
        case 5: put16(q + 58, 40); break;
        case 6: put16(q + 62, 500); break;
        case 7: put64(q + m.info_hdr + 24, 1ull << 40); break;
        case 8: put64(q + m.info_hdr + 32, clen); break;
        case 9: put16(q + rc + 2, 4000); break;
        case 10: q[m.info_off] = 9; break;
        case 11: put32(q + rc + 4, 4096); break;
        case 12: put32(q + rc + 8, 0); break;
        case 13: put32(q + rc + 8, 300); break;
        case 14: put32(q + m.info_hdr + 40, 0); break;
        case 15: put32(q + m.info_hdr + 40, (uint32_t)((m.info_hdr - m.shoff) / m.shent)); break;
        case 16: {
            size_t r2 = rc + 12;
            while (q[r2 + 1] != 0x2f)
                r2 += q[r2] == 4 ? 4u + (q[r2 + 2] | q[r2 + 3] << 8) : 4u;
            memcpy(q + r2 + 4, q + rc + 4, 4);
            break;
        }
        case 17: q[rc] = 3; break;
        case 18: put64(q + m.info_hdr + 32, rc - m.info_off + 2); break;
        }
        ws_fatbin_regs *r = (ws_fatbin_regs *)1;
        count = 9;
        err[0] = 0;
        int ret = ws_cubin_regs(q, clen, &r, &count, err, sizeof err);
        if (ret != -1 || r || count)
            fail_msg("case %zu: accepted", k);
        if (!strstr(err, cases[k].want))
            fail_msg("case %zu: '%s' lacks '%s'", k, err, cases[k].want);
        free(q);
    }
    /* every prefix: the section header table is at the end, so every cut is caught */
    for (size_t cut = 0; cut < clen; cut++) {
        uint8_t *q = dup_n(c75, cut);
        ws_fatbin_regs *r = NULL;
        err[0] = 0;
        int ret = ws_cubin_regs(q, cut, &r, &count, err, sizeof err);
        if (cut < m.shoff + m.shnum * m.shent) {
            assert_int_equal(ret, -1);
            assert_true(err[0] != 0);
        }
        ws_fatbin_regs_free(r, ret ? 0 : count);
        free(q);
    }
    /* damaged bytes anywhere: an error or a list of plausible counts */
    for (size_t at = 0; at < clen; at += 3) {
        uint8_t *q = dup_n(c75, clen);
        q[at] ^= 0x5a;
        ws_fatbin_regs *r = NULL;
        err[0] = 0;
        if (ws_cubin_regs(q, clen, &r, &count, err, sizeof err) == 0) {
            for (size_t i = 0; i < count; i++)
                assert_true(r[i].regs >= 1 && r[i].regs <= WS_FATBIN_MAX_REGS && r[i].name[0]);
            ws_fatbin_regs_free(r, count);
        } else {
            assert_true(err[0] != 0);
        }
        free(q);
    }
    free(img);
}

/* Corrupt SASS entries in the fatbinary: the message names the entry ("sm_75 SASS"). */
static void test_sass_corrupt(void **st)
{
    (void)st;
    char err[300];
    size_t len, n = 0, count;
    ws_fatbin_regs *r;
    /* compressed cubins: a zstd frame cut short, an LZ4 block declared a byte longer */
    static const struct { const char *file; const char *want; } z[] = {
        {"regs2_zstd.fatbin", "sm_75 SASS: zstd"}, {"regs2_lz4.fatbin", "sm_75 SASS: LZ4"},
    };
    for (size_t k = 0; k < 2; k++) {
        uint8_t *img = load(z[k].file, &len);
        ws_fatbin_entry e[8];
        assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
        size_t off = 0;
        for (size_t i = 0; i < n; i++)
            if (e[i].kind == WS_FATBIN_KIND_ELF && e[i].arch == 75 && e[i].payload_size > 2000)
                off = (size_t)(e[i].payload - img) - 64;   /* its 64-byte entry header */
        assert_true(off != 0);
        uint8_t *q = dup_n(img, len);
        uint32_t csz = le32(q + off + 16);
        put32(q + off + 16, k == 0 ? csz - 100 : csz + 1);
        err[0] = 0;
        assert_int_equal(ws_fatbin_sass_regs(q, len, &r, &count, NULL, err, sizeof err), -1);
        if (!strstr(err, z[k].want))
            fail_msg("%s: '%s' lacks '%s'", z[k].file, err, z[k].want);
        free(q);
        /* an unknown compression flag on a compressed cubin */
        q = dup_n(img, len);
        q[off + 40 + 1] = 0x01;
        err[0] = 0;
        assert_int_equal(ws_fatbin_sass_regs(q, len, &r, &count, NULL, err, sizeof err), -1);
        assert_non_null(strstr(err, "sm_75 SASS uses an unknown compression"));
        free(q);
        free(img);
    }
    /* a plain cubin whose ELF magic is damaged; and an entry cut by the container */
    uint8_t *img = load("regs2.fatbin", &len);
    size_t clen;
    const uint8_t *c = regs2_cubin(img, len, 75, &clen);
    uint8_t *q = dup_n(img, len);
    q[c - img + 1] = 'X';
    err[0] = 0;
    assert_int_equal(ws_fatbin_sass_regs(q, len, &r, &count, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "sm_75 SASS is not an ELF file"));
    free(q);
    /* every prefix of every image with SASS: an error, or (cut after a container: nvcc
     * writes several) the counts of the containers kept, never a crash */
    static const char *const names[] = {"regs2.fatbin", "regs2_zstd.fatbin", "regs2_lz4.fatbin",
                                        "vecadd_sass.fatbin", "vecadd_multi.fatbin"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t l, full_n = 0, errs = 0, cuts = 0;
        uint8_t *im = load(names[k], &l);
        ws_fatbin_regs *full = NULL;
        assert_int_equal(ws_fatbin_sass_regs(im, l, &full, &full_n, NULL, err, sizeof err), 0);
        for (size_t cut = 0; cut < l; cut += k < 3 ? 3 : 1, cuts++) {
            q = dup_n(im, cut);
            r = NULL;
            err[0] = 0;
            int ret = ws_fatbin_sass_regs(q, cut, &r, &count, NULL, err, sizeof err);
            if (ret) {
                assert_true(err[0] != 0);
                errs++;
            } else {
                for (size_t i = 0; i < count; i++)
                    assert_int_equal(r[i].regs, regs_of(full, full_n, r[i].name));
                ws_fatbin_regs_free(r, count);
            }
            free(q);
        }
        assert_true(cuts - errs <= 4 * 16);   /* only cuts within 16 bytes after a container pass */
        ws_fatbin_regs_free(full, full_n);
        free(im);
    }
    free(img);
}

/* The pragmas: only names that are functions of the PTX, never when the PTX has its own;
 * the module then loads with the counts (what rt_fatbin_module does). */
static void test_ptx_add_regs(void **st)
{
    (void)st;
    size_t len, plen = 0, count = 0, olen = 0, added = 9;
    uint8_t *img = load("regs2.fatbin", &len);
    char err[300] = "";
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    assert_non_null(ptx);
    ws_fatbin_regs *r = NULL;
    uint32_t sm = 0;
    assert_int_equal(ws_fatbin_sass_regs(img, len, &r, &count, &sm, err, sizeof err), 0);
    char *out = ws_fatbin_ptx_add_regs(ptx, plen, r, count, sm, &olen, &added, err, sizeof err);
    assert_non_null(out);
    assert_int_equal(added, 2);
    assert_int_equal(strlen(out), olen);
    assert_memory_equal(out, ptx, plen);
    assert_non_null(strstr(out + plen, "registers per thread from the fatbinary's sm_75 SASS"));
    assert_non_null(strstr(out + plen, ".pragma \"warpsim.regs " BIG " 30\";\n"));
    assert_non_null(strstr(out + plen, ".pragma \"warpsim.regs " SMALL " 8\";\n"));

    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *m = NULL;
    assert_int_equal(ws_module_load(s, out, olen, "fatbin", &m, err, sizeof err), WS_OK);
    const ptx_module *pm = ws_module_ptx(m);
    int big = ptx_find_func(pm, BIG), small = ptx_find_func(pm, SMALL);
    assert_true(big >= 0 && small >= 0);
    assert_int_equal(pm->funcs[big].ptxas_regs, 30);
    assert_int_equal(pm->funcs[small].ptxas_regs, 8);
    ws_module_unload(s, m);
    ws_sim_destroy(s);

    /* the PTX already carries warpsim.regs pragmas: they win, nothing is added */
    size_t olen2 = 9;
    assert_null(ws_fatbin_ptx_add_regs(out, olen, r, count, sm, &olen2, &added, err,
                                       sizeof err));
    assert_int_equal(added, 0);
    free(out);
    /* no counts: nothing to add */
    err[0] = 0;
    assert_null(ws_fatbin_ptx_add_regs(ptx, plen, r, 0, sm, &olen, &added, err, sizeof err));
    assert_int_equal(added, 0);
    assert_int_equal(err[0], 0);
    ws_fatbin_regs_free(r, count);
    free(ptx);
    free(img);

    /* only .entry and .func names outside comments and strings; others are skipped */
    static const char text[] =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        "// .entry ghost1\n/* .entry ghost2\n .func ghost3 */\n"
        ".pragma \"x .entry ghost4\";\n"
        ".func (.param .b32 rv) helper(.param .b32 a)\n{\n\tst.param.b32 [rv], 1;\n\tret;\n}\n"
        ".visible .entry real(\n\t.param .u64 p\n)\n{\n\tret;\n}";   /* no final newline */
    ws_fatbin_regs list[] = {{"ghost1", 5},  {"ghost2", 6},    {"ghost3", 7},
                             {"ghost4", 8},  {"real", 9},      {"helper", 10},
                             {"rea", 11},    {"real2", 12}};
    out = ws_fatbin_ptx_add_regs(text, sizeof text - 1, list, 8, 86, &olen, &added, err,
                                 sizeof err);
    assert_non_null(out);
    assert_int_equal(added, 2);
    assert_string_equal(out + sizeof text - 1,
                        "\n// warpsim.regs: registers per thread from the fatbinary's sm_86 "
                        "SASS\n.pragma \"warpsim.regs real 9\";\n"
                        ".pragma \"warpsim.regs helper 10\";\n");
    s = ws_sim_create(&cfg);
    assert_non_null(s);
    assert_int_equal(ws_module_load(s, out, olen, "t", &m, err, sizeof err), WS_OK);
    pm = ws_module_ptx(m);
    assert_int_equal(pm->funcs[ptx_find_func(pm, "real")].ptxas_regs, 9);
    assert_int_equal(pm->funcs[ptx_find_func(pm, "helper")].ptxas_regs, 10);
    ws_module_unload(s, m);
    ws_sim_destroy(s);
    free(out);
    /* none matches: nothing added, no message */
    err[0] = 0;
    assert_null(ws_fatbin_ptx_add_regs(text, sizeof text - 1, list, 4, 86, &olen, &added, err,
                                       sizeof err));
    assert_int_equal(added, 0);
    assert_int_equal(err[0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zstd),          cmocka_unit_test(test_container_size),
        cmocka_unit_test(test_sass_only),     cmocka_unit_test(test_arch_choice),
        cmocka_unit_test(test_truncated),     cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_large),         cmocka_unit_test(test_lz4),
        cmocka_unit_test(test_lz4_corrupt),   cmocka_unit_test(test_sass_regs),
        cmocka_unit_test(test_cubin_regs),    cmocka_unit_test(test_cubin_corrupt),
        cmocka_unit_test(test_sass_corrupt),  cmocka_unit_test(test_ptx_add_regs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
