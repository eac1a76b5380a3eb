/* test_parse.c - PTX front end: lexer, parser, decoded IR fields, layout, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx/ir.h"

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* ---- helpers --------------------------------------------------------------------------- */
static char *read_file(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WS_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    assert_non_null(b);
    *n = fread(b, 1, (size_t)len, f);
    b[*n] = 0;
    fclose(f);
    return b;
}

static ptx_module *parse_n(const char *src, size_t n)
{
    ptx_diag d;
    ptx_module *m = ptx_parse(src, n, "t.ptx", &d);
    if (!m)
        fail_msg("unexpected parse error t.ptx:%u:%u: %s", d.line, d.col, d.msg);
    return m;
}

static ptx_module *parse_ok(const char *src) { return parse_n(src, strlen(src)); }

static void expect_err(const char *src, uint32_t line, uint32_t col, const char *frag)
{
    ptx_diag d;
    ptx_module *m = ptx_parse(src, strlen(src), "t.ptx", &d);
    if (m) {
        ptx_module_free(m);
        fail_msg("expected error '%s' at %u:%u, parse succeeded\n%s", frag, line, col, src);
    }
    if (!strstr(d.msg, frag) || d.line != line || d.col != col)
        fail_msg("expected '%s' at %u:%u, got '%s' at %u:%u\n%s", frag, line, col, d.msg, d.line,
                 d.col, src);
}

static const ptx_func *func(const ptx_module *m, const char *name)
{
    int i = ptx_find_func(m, name);
    if (i < 0)
        fail_msg("no function %s", name);
    return &m->funcs[i];
}

static const ptx_symbol *sym_in(const ptx_module *m, int32_t fn, const char *name)
{
    for (uint32_t i = 0; i < m->n_syms; i++)
        if (m->syms[i].func == fn && !strcmp(ptx_str(m, m->syms[i].name), name))
            return &m->syms[i];
    fail_msg("no symbol %s in function %d", name, fn);
    return NULL;
}

static uint32_t sym_index(const ptx_module *m, const ptx_symbol *s) { return (uint32_t)(s - m->syms); }

static int reg_slot(const ptx_func *f, const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < f->n_regs; i++)
        if (!strcmp(ptx_str(m, f->regs[i].name), name))
            return (int)i;
    return -1;
}

static const char *fmt(const ptx_module *m, const ptx_func *f, uint32_t i)
{
    static char buf[512];
    ptx_insn_format(m, f, &f->insns[i], buf, sizeof buf);
    return buf;
}

/* Index of the instruction that formats exactly as `text`. */
static uint32_t find_insn(const ptx_module *m, const ptx_func *f, const char *text)
{
    for (uint32_t i = 0; i < f->n_insns; i++)
        if (!strcmp(fmt(m, f, i), text))
            return i;
    fail_msg("no instruction '%s' in %s", text, ptx_str(m, f->name));
    return 0;
}

/* One instruction in a kernel with registers of every kind declared. */
#define KERNEL_REGS                                                                       \
    ".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .f16 %hf<4>;\n.reg .b32 %r<16>;\n"         \
    ".reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n.reg .f64 %fd<8>;\n"
#define WRAP_PRE HDR ".global .align 4 .b8 gv[64];\n.entry k(.param .u64 kp)\n{\n" \
    KERNEL_REGS ".shared .align 4 .b8 sh[64];\n"
#define WRAP_POST "\nret;\n}\n"
#define WRAP(body) WRAP_PRE body WRAP_POST

static ptx_module *one(const char *insn, const ptx_insn **out)
{
    char src[2048];
    snprintf(src, sizeof src, "%s%s%s", WRAP_PRE, insn, WRAP_POST);
    ptx_module *m = parse_ok(src);
    *out = &m->funcs[0].insns[0];
    return m;
}

/* ---- nvcc output ------------------------------------------------------------------------ */
static const char *const nvcc_files[] = {"tests/ptx/parse_calls.ptx", "tests/ptx/parse_warp.ptx",
                                         "tests/ptx/parse_lineinfo.ptx",
                                         "tests/ptx/parse_debug.ptx"};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Canonical form of one instruction's text: whitespace dropped, modifiers sorted (nvcc's
 * inline asm sometimes orders them differently), "+0]" as "]", labels dropped. */
static void canon(const char *s, char *out, size_t n)
{
    char op[256], rest[512];
    size_t k = 0, r = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    out[0] = 0;
    if (*s == '@') {
        while (*s && *s != ' ' && *s != '\t' && k + 2 < sizeof op)
            op[k++] = *s++;
        op[k] = 0;
        snprintf(out, n, "%s ", op);
        k = 0;
        while (*s == ' ' || *s == '\t')
            s++;
    }
    while (*s && *s != ' ' && *s != '\t' && *s != ';' && k + 1 < sizeof op)
        op[k++] = *s++;
    op[k] = 0;
    for (; *s && r + 1 < sizeof rest; s++)
        if (*s != ' ' && *s != '\t')
            rest[r++] = *s;
    rest[r] = 0;
    for (char *p; (p = strstr(rest, "+0]"));)
        memmove(p, p + 2, strlen(p + 2) + 1);
    const char *parts[32];
    int np = 0;
    for (char *tok = strtok(op, "."); tok && np < 32; tok = strtok(NULL, "."))
        parts[np++] = tok;
    if (np > 1)
        qsort(parts + 1, (size_t)np - 1, sizeof parts[0], cmp_str);
    for (int i = 0; i < np; i++) {
        strncat(out, parts[i], n - strlen(out) - 1);
        strncat(out, ".", n - strlen(out) - 1);
    }
    if (np && strcmp(parts[0], "bra"))
        strncat(out, rest, n - strlen(out) - 1);
}

static void roundtrip(const char *rel)
{
    size_t n;
    char *text = read_file(rel, &n);
    assert_non_null(text);
    ptx_module *m = parse_n(text, n);
    char **lines = calloc(n + 2, sizeof *lines);
    size_t nl = 1;
    lines[1] = text;
    for (char *p = text; (p = strchr(p, '\n'));)
        *p++ = 0, lines[++nl] = p;
    unsigned total = 0, compared = 0;
    for (uint32_t fi = 0; fi < m->n_funcs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->n_insns; i++) {
            total++;
            const ptx_insn *in = &f->insns[i];
            assert_true(in->line >= 1 && in->line <= nl);
            char line[512];
            snprintf(line, sizeof line, "%s", lines[in->line]);
            char *c = strstr(line, "//");
            if (c)
                *c = 0;
            char *s = line;
            while (*s == ' ' || *s == '\t' || *s == '{')
                s++;
            char *e = s + strlen(s);
            while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '}' || e[-1] == '\r'))
                *--e = 0;
            if (e == s || e[-1] != ';' || strchr(s, ';') != e - 1)
                continue; /* multi-line call sequence or the implicit ret */
            char a[600], b[600];
            canon(s, a, sizeof a);
            canon(fmt(m, f, i), b, sizeof b);
            if (strcmp(a, b))
                fail_msg("%s:%u: source '%s' formats as '%s'", rel, in->line, s, fmt(m, f, i));
            compared++;
        }
    }
    /* nearly every instruction is a one-line statement: the test is not vacuous */
    assert_true(compared * 10 >= total * 8);
    free(lines);
    free(text);
    ptx_module_free(m);
}

static void test_nvcc_roundtrip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof nvcc_files / sizeof nvcc_files[0]; i++)
        roundtrip(nvcc_files[i]);
}

/* Every workload PTX of bench/ must parse. */
static void test_bench_ptx(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/bench", WS_SOURCE_DIR);
    DIR *d = opendir(dir);
    if (!d)
        skip();
    unsigned files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char rel[600];
        snprintf(rel, sizeof rel, "bench/%s/%s.ptx", e->d_name, e->d_name);
        size_t n;
        char *text = read_file(rel, &n);
        if (!text)
            continue;
        ptx_diag dg;
        ptx_module *m = ptx_parse(text, n, rel, &dg);
        if (!m)
            fail_msg("%s:%u:%u: %s", rel, dg.line, dg.col, dg.msg);
        assert_true(m->n_funcs > 0);
        /* every kernel carries ptxas's register count (bench/gen_ptx.sh) */
        for (uint32_t i = 0; i < m->n_funcs; i++)
            if (m->funcs[i].is_entry && !m->funcs[i].ptxas_regs)
                fail_msg("%s: kernel '%s' has no warpsim.regs pragma (run bench/gen_ptx.sh)",
                         rel, ptx_str(m, m->funcs[i].name));
        ptx_module_free(m);
        free(text);
        files++;
    }
    closedir(d);
    if (!files)
        skip();
}

static void test_nvcc_calls(void **state)
{
    (void)state;
    size_t n;
    char *text = read_file("tests/ptx/parse_calls.ptx", &n);
    assert_non_null(text);
    ptx_module *m = parse_n(text, n);
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, "sm_75");
    assert_int_equal(m->address_size, 64);

    const ptx_func *vp = func(m, "vprintf");
    assert_true(vp->is_decl);
    assert_int_equal(vp->n_rets, 1);
    assert_int_equal(vp->n_params, 2);
    const ptx_func *f1 = func(m, "_Z2f1fi");
    assert_false(f1->is_decl);
    assert_false(f1->is_entry);
    assert_int_equal(f1->n_rets, 1);
    assert_int_equal(f1->n_params, 2);
    /* frame: func_retval0 (b32) at 0, the two b32 params at 4 and 8 */
    assert_int_equal(m->syms[f1->rets[0]].addr, 0);
    assert_int_equal(m->syms[f1->params[0]].addr, 4);
    assert_int_equal(m->syms[f1->params[1]].addr, 8);
    assert_int_equal(f1->frame_size, 12);
    /* %f<5>, %r<3>, %rd<5> */
    assert_int_equal(f1->n_regs, 13);

    const ptx_func *k = func(m, "_Z7k_callsPfi1S");
    assert_true(k->is_entry);
    assert_true(k->is_visible);
    assert_int_equal(k->maxntid[0], 256);
    assert_int_equal(k->maxntid[1], 1);
    assert_int_equal(k->maxntid[2], 1);
    assert_int_equal(k->minnctapersm, 2);
    /* params: u64 at 0, u32 at 8, .align 4 .b8 [16] at 12 */
    assert_int_equal(k->n_params, 3);
    assert_int_equal(m->syms[k->params[2]].addr, 12);
    assert_int_equal(m->syms[k->params[2]].size, 16);
    assert_int_equal(k->param_size, 28);

    /* call.uni (retval0), _Z2f1fi, (param0, param1) */
    int calls = 0;
    for (uint32_t i = 0; i < k->n_insns; i++) {
        const ptx_insn *in = &k->insns[i];
        if (in->op != OP_CALL || in->ops[1].r != (uint32_t)ptx_find_func(m, "_Z2f1fi"))
            continue;
        calls++;
        assert_int_equal(in->nops, 3);
        assert_true(in->flags & MF_UNI);
        assert_int_equal(in->ops[0].kind, OK_PARAMS);
        assert_int_equal(in->ops[0].n, 1);
        assert_int_equal(in->ops[1].kind, OK_FUNC);
        assert_int_equal(in->ops[2].kind, OK_PARAMS);
        assert_int_equal(in->ops[2].n, 2);
        const ptx_symbol *a0 = &m->syms[m->pool[in->ops[2].r]];
        assert_string_equal(ptx_str(m, a0->name), "param0");
        assert_true(a0->is_param);
        assert_int_equal(a0->space, SP_PARAM);
        assert_int_equal(a0->func, ptx_find_func(m, "_Z7k_callsPfi1S"));
        assert_string_equal(ptx_str(m, m->syms[m->pool[in->ops[0].r]].name), "retval0");
        assert_string_equal(fmt(m, k, i), "call.uni (retval0), _Z2f1fi, (param0, param1);");
    }
    assert_int_equal(calls, 1);
    /* the void call has no return list */
    find_insn(m, k, "call.uni _Z2f2Pi, ();");

    /* constant table and initialised globals */
    const ptx_symbol *ct = &m->syms[ptx_find_sym(m, "ctab")];
    assert_int_equal(ct->space, SP_CONST);
    assert_int_equal(ct->size, 16);
    float v[4];
    memcpy(v, m->init + ct->init, 16);
    assert_true(v[0] == 1.0f && v[1] == 2.5f && v[2] == -3.0f && v[3] == 0.125f);
    const ptx_symbol *gc = &m->syms[ptx_find_sym(m, "gcount")];
    uint32_t g;
    memcpy(&g, m->init + gc->init, 4);
    assert_int_equal(g, 7);
    /* stab[12] = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6}: the last byte is zero-filled */
    const ptx_symbol *st = &m->syms[ptx_find_sym(m, "stab")];
    assert_int_equal(st->size, 12);
    assert_int_equal(m->init[st->init + 10], 6);
    assert_int_equal(m->init[st->init + 11], 0);
    const ptx_symbol *dy = &m->syms[ptx_find_sym(m, "dyn")];
    assert_true(dy->is_extern);
    assert_int_equal(dy->size, 0);
    assert_int_equal(dy->space, SP_SHARED);

    /* k_dyn: demoted __shared__ int sarr[64] after module shared (none: dyn is extern) */
    const ptx_func *kd = func(m, "_Z5k_dynPfi");
    const ptx_symbol *sa = sym_in(m, ptx_find_func(m, "_Z5k_dynPfi"), "_ZZ5k_dynPfiE4sarr");
    assert_int_equal(sa->addr, 0);
    assert_int_equal(kd->shared_static, 256);
    assert_int_equal(m->shared_static, 0);
    /* .local .align 16 .b8 __local_depot4[64] */
    assert_int_equal(kd->frame_size, 64);
    assert_int_equal(kd->frame_align, 16);
    ptx_module_free(m);
    free(text);
}

static void test_nvcc_warp(void **state)
{
    (void)state;
    size_t n;
    char *text = read_file("tests/ptx/parse_warp.ptx", &n);
    assert_non_null(text);
    ptx_module *m = parse_n(text, n);
    const ptx_func *f = &m->funcs[0];
    uint32_t i = find_insn(m, f, "shfl.sync.down.b32 %r19|%p1, %r3, %r11, %r17, %r18;");
    const ptx_insn *in = &f->insns[i];
    assert_int_equal(in->op, OP_SHFL);
    assert_int_equal(in->sub, SHFL_DOWN);
    assert_true(in->flags & MF_SYNC);
    assert_int_equal(in->nops, 6);
    assert_int_equal(in->ops[1].kind, OK_REG);
    assert_int_equal(in->ops[1].r, reg_slot(f, m, "%p1"));
    assert_int_equal(in->ops[5].r, reg_slot(f, m, "%r18"));
    assert_int_equal(in->cls, PC_WARP);

    in = &f->insns[find_insn(m, f, "atom.acq_rel.gpu.add.u32 %r10, [%rd3], %r11;")];
    assert_int_equal(in->sem, SEM_ACQ_REL);
    assert_int_equal(in->scope, SCOPE_GPU);
    assert_int_equal(in->space, SP_GENERIC);
    assert_int_equal(in->sub, AOP_ADD);

    in = &f->insns[find_insn(m, f, "ld.acquire.gpu.b32 %r12, [%rd3];")];
    assert_int_equal(in->sem, SEM_ACQUIRE);
    in = &f->insns[find_insn(m, f, "bar.red.popc.u32 %r56, 0, %p1;")];
    assert_int_equal(in->sub, BAR_RED_POPC);
    assert_int_equal(in->nops, 4);
    assert_int_equal(in->ops[2].kind, OK_NONE);
    assert_int_equal(in->ops[3].kind, OK_REG);
    in = &f->insns[find_insn(m, f, "redux.sync.max.s32 %r54, %r3, %r18;")];
    assert_int_equal(in->sub, AOP_MAX);
    assert_int_equal(in->type, PT_S32);
    in = &f->insns[find_insn(m, f, "atom.global.add.f64 %fd1, [%rd19], 0d4000000000000000;")];
    assert_int_equal(in->ops[2].imm, 0x4000000000000000ull);
    assert_int_equal(in->cls, PC_MEM);
    ptx_module_free(m);
    free(text);
}

static void test_nvcc_debug(void **state)
{
    (void)state;
    size_t n;
    char *text = read_file("tests/ptx/parse_debug.ptx", &n);
    assert_non_null(text);
    ptx_module *m = parse_n(text, n);
    assert_int_equal(m->n_funcs, 1);
    assert_true(m->funcs[0].n_insns > 20);
    ptx_module_free(m);
    free(text);
    text = read_file("tests/ptx/parse_lineinfo.ptx", &n);
    assert_non_null(text);
    m = parse_n(text, n);
    assert_int_equal(m->n_funcs, 1);
    ptx_module_free(m);
    free(text);
}

/* ---- decoding ----------------------------------------------------------------------------- */
typedef struct {
    const char *text;
    uint16_t op;
    uint8_t type, type2, space, cmp, rnd, sub, vec, cop, sem, scope, nops;
    uint32_t flags;
} dec_case;

static const dec_case dec_cases[] = {
    {"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", OP_LD, PT_F32, 0, SP_GLOBAL, 0, 0, 0,
     4, 0, 0, 0, 2, MF_NC},
    {"ld.param.u64 %rd1, [kp];", OP_LD, PT_U64, 0, SP_PARAM, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"ld.volatile.global.u32 %r1, [%rd1];", OP_LD, PT_U32, 0, SP_GLOBAL, 0, 0, 0, 1, 0,
     SEM_VOLATILE, 0, 2, 0},
    {"ld.relaxed.gpu.global.u32 %r1, [%rd1];", OP_LD, PT_U32, 0, SP_GLOBAL, 0, 0, 0, 1, 0,
     SEM_RELAXED, SCOPE_GPU, 2, 0},
    {"ld.global.ca.u32 %r1, [%rd1];", OP_LD, PT_U32, 0, SP_GLOBAL, 0, 0, 0, 1, CO_CA, 0, 0, 2, 0},
    {"ld.u8 %r1, [%rd1];", OP_LD, PT_U8, 0, SP_GENERIC, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"st.shared.v2.f32 [sh], {%f1, %f2};", OP_ST, PT_F32, 0, SP_SHARED, 0, 0, 0, 2, 0, 0, 0, 2, 0},
    {"st.global.cs.f32 [%rd1], %f1;", OP_ST, PT_F32, 0, SP_GLOBAL, 0, 0, 0, 1, CO_CS, 0, 0, 2, 0},
    {"st.release.sys.global.b32 [%rd1], %r1;", OP_ST, PT_B32, 0, SP_GLOBAL, 0, 0, 0, 1, 0,
     SEM_RELEASE, SCOPE_SYS, 2, 0},
    {"atom.global.add.f32 %f1, [%rd1], %f2;", OP_ATOM, PT_F32, 0, SP_GLOBAL, 0, 0, AOP_ADD, 1, 0,
     0, 0, 3, 0},
    {"atom.shared.cas.b32 %r1, [%r2], %r3, %r4;", OP_ATOM, PT_B32, 0, SP_SHARED, 0, 0, AOP_CAS,
     1, 0, 0, 0, 4, 0},
    {"atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], 1;", OP_ATOM, PT_U32, 0, SP_GLOBAL, 0, 0,
     AOP_ADD, 1, 0, SEM_ACQ_REL, SCOPE_GPU, 3, 0},
    {"atom.global.inc.u32 %r1, [%rd1], 17;", OP_ATOM, PT_U32, 0, SP_GLOBAL, 0, 0, AOP_INC, 1, 0,
     0, 0, 3, 0},
    {"red.global.add.u64 [%rd1], %rd2;", OP_RED, PT_U64, 0, SP_GLOBAL, 0, 0, AOP_ADD, 1, 0, 0, 0,
     2, 0},
    {"atom.add.noftz.f16 %h1, [%rd1], %h2;", OP_ATOM, PT_F16, 0, SP_GENERIC, 0, 0, AOP_ADD, 1, 0,
     0, 0, 3, MF_NOINC},
    {"setp.ne.and.s32 %p1|%p2, %r1, %r2, %p3;", OP_SETP, PT_S32, 0, 0, CMP_NE, 0, BOOL_AND, 1,
     0, 0, 0, 5, 0},
    {"setp.gtu.ftz.f32 %p1, %f1, %f2;", OP_SETP, PT_F32, 0, 0, CMP_GTU, 0, 0, 1, 0, 0, 0, 4,
     MF_FTZ},
    {"setp.lo.u32 %p1, %r1, %r2;", OP_SETP, PT_U32, 0, 0, CMP_LO, 0, 0, 1, 0, 0, 0, 4, 0},
    {"set.lt.u32.f32 %r1, %f1, %f2;", OP_SET, PT_U32, PT_F32, 0, CMP_LT, 0, 0, 1, 0, 0, 0, 3, 0},
    {"selp.b32 %r1, %r2, %r3, %p1;", OP_SELP, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"slct.f32.s32 %f1, %f2, %f3, %r1;", OP_SLCT, PT_F32, PT_S32, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"cvt.rn.f32.s32 %f1, %r1;", OP_CVT, PT_F32, PT_S32, 0, 0, RND_RN, 0, 1, 0, 0, 0, 2, 0},
    {"cvt.rzi.s32.f32 %r1, %f1;", OP_CVT, PT_S32, PT_F32, 0, 0, RND_RZI, 0, 1, 0, 0, 0, 2, 0},
    {"cvt.sat.f32.f32 %f1, %f2;", OP_CVT, PT_F32, PT_F32, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_SAT},
    {"cvt.u64.u32 %rd1, %r1;", OP_CVT, PT_U64, PT_U32, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"cvt.rn.f16.f32 %h1, %f1;", OP_CVT, PT_F16, PT_F32, 0, 0, RND_RN, 0, 1, 0, 0, 0, 2, 0},
    {"cvt.f32.f16 %f1, %h1;", OP_CVT, PT_F32, PT_F16, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"cvt.rn.f16x2.f32 %r1, %f1, %f2;", OP_CVT, PT_F16X2, PT_F32, 0, 0, RND_RN, 0, 1, 0, 0, 0, 3,
     0},
    {"cvta.to.global.u64 %rd1, %rd2;", OP_CVTA, PT_U64, 0, SP_GLOBAL, 0, 0, 0, 1, 0, 0, 0, 2,
     MF_TO},
    {"cvta.shared.u64 %rd1, %rd2;", OP_CVTA, PT_U64, 0, SP_SHARED, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"isspacep.shared %p1, %rd1;", OP_ISSPACEP, 0, 0, SP_SHARED, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"mul.wide.s32 %rd1, %r1, %r2;", OP_MUL, PT_S32, 0, 0, 0, 0, MUL_WIDE, 1, 0, 0, 0, 3, 0},
    {"mul.hi.u32 %r1, %r2, %r3;", OP_MUL, PT_U32, 0, 0, 0, 0, MUL_HI, 1, 0, 0, 0, 3, 0},
    {"mad.lo.s32 %r1, %r2, %r3, %r4;", OP_MAD, PT_S32, 0, 0, 0, 0, MUL_LO, 1, 0, 0, 0, 4, 0},
    {"mad.wide.u32 %rd1, %r2, %r3, %rd2;", OP_MAD, PT_U32, 0, 0, 0, 0, MUL_WIDE, 1, 0, 0, 0, 4, 0},
    {"mul24.lo.s32 %r1, %r2, %r3;", OP_MUL24, PT_S32, 0, 0, 0, 0, MUL_LO, 1, 0, 0, 0, 3, 0},
    {"mad.rn.f32 %f1, %f2, %f3, %f4;", OP_MAD, PT_F32, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 4, 0},
    {"fma.rn.ftz.f32 %f1, %f2, %f3, %f4;", OP_FMA, PT_F32, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 4,
     MF_FTZ},
    {"div.rn.f32 %f1, %f2, %f3;", OP_DIV, PT_F32, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 3, 0},
    {"div.full.f32 %f1, %f2, %f3;", OP_DIV, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, MF_FULL},
    {"div.approx.f32 %f1, %f2, %f3;", OP_DIV, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, MF_APPROX},
    {"div.s32 %r1, %r2, %r3;", OP_DIV, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"rcp.rn.f64 %fd1, %fd2;", OP_RCP, PT_F64, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 2, 0},
    {"rcp.approx.ftz.f64 %fd1, %fd2;", OP_RCP, PT_F64, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2,
     MF_APPROX | MF_FTZ},
    {"sqrt.rn.f32 %f1, %f2;", OP_SQRT, PT_F32, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 2, 0},
    {"sqrt.approx.f32 %f1, %f2;", OP_SQRT, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_APPROX},
    {"rsqrt.approx.f32 %f1, %f2;", OP_RSQRT, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_APPROX},
    {"sin.approx.ftz.f32 %f1, %f2;", OP_SIN, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2,
     MF_APPROX | MF_FTZ},
    {"lg2.approx.f32 %f1, %f2;", OP_LG2, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_APPROX},
    {"ex2.approx.ftz.f32 %f1, %f2;", OP_EX2, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2,
     MF_APPROX | MF_FTZ},
    {"tanh.approx.f32 %f1, %f2;", OP_TANH, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_APPROX},
    {"abs.ftz.f32 %f1, %f2;", OP_ABS, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_FTZ},
    {"min.NaN.f32 %f1, %f2, %f3;", OP_MIN, PT_F32, 0, 0, 0, 0, 1, 1, 0, 0, 0, 3, 0},
    {"max.s32 %r1, %r2, -3;", OP_MAX, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"testp.finite.f32 %p1, %f1;", OP_TESTP, PT_F32, 0, 0, 0, 0, TESTP_FINITE, 1, 0, 0, 0, 2, 0},
    {"copysign.f32 %f1, %f2, %f3;", OP_COPYSIGN, PT_F32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"and.pred %p1, %p2, %p3;", OP_AND, PT_PRED, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"not.pred %p1, %p2;", OP_NOT, PT_PRED, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"xor.pred %p1, %p2, %p3;", OP_XOR, PT_PRED, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"mov.pred %p7, 0;", OP_MOV, PT_PRED, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"shf.l.wrap.b32 %r1, %r2, %r3, %r4;", OP_SHF, PT_B32, 0, 0, 0, 0, SHF_L, 1, 0, 0, 0, 4,
     MF_WRAP},
    {"shf.r.clamp.b32 %r1, %r2, %r3, %r4;", OP_SHF, PT_B32, 0, 0, 0, 0, SHF_R, 1, 0, 0, 0, 4,
     MF_CLAMP},
    {"lop3.b32 %r1, %r2, %r3, %r4, 0x96;", OP_LOP3, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0},
    {"prmt.b32.f4e %r1, %r2, %r3, %r4;", OP_PRMT, PT_B32, 0, 0, 0, 0, PRMT_F4E, 1, 0, 0, 0, 4, 0},
    {"bfe.u32 %r1, %r2, 8, 4;", OP_BFE, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"bfi.b32 %r1, %r2, %r3, 8, 4;", OP_BFI, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0},
    {"brev.b32 %r1, %r2;", OP_BREV, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"clz.b32 %r1, %r2;", OP_CLZ, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"popc.b64 %r1, %rd2;", OP_POPC, PT_B64, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"bfind.u32 %r1, %r2;", OP_BFIND, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"bfind.shiftamt.s32 %r1, %r2;", OP_BFIND, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, MF_SHIFTAMT},
    {"dp4a.u32.s32 %r1, %r2, %r3, %r4;", OP_DP4A, PT_U32, PT_S32, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"shfl.sync.down.b32 %r1|%p1, %r2, %r3, %r4, %r5;", OP_SHFL, PT_B32, 0, 0, 0, 0, SHFL_DOWN, 1,
     0, 0, 0, 6, MF_SYNC},
    {"shfl.sync.idx.b32 %r1, %r2, %r3, %r4, %r5;", OP_SHFL, PT_B32, 0, 0, 0, 0, SHFL_IDX, 1, 0, 0,
     0, 6, MF_SYNC},
    {"shfl.up.b32 %r1, %r2, 1, 0;", OP_SHFL, PT_B32, 0, 0, 0, 0, SHFL_UP, 1, 0, 0, 0, 5, 0},
    {"vote.sync.any.pred %p1, %p2, %r1;", OP_VOTE, PT_PRED, 0, 0, 0, 0, VOTE_ANY, 1, 0, 0, 0, 3,
     MF_SYNC},
    {"vote.sync.ballot.b32 %r1, %p1, -1;", OP_VOTE, PT_B32, 0, 0, 0, 0, VOTE_BALLOT, 1, 0, 0, 0, 3,
     MF_SYNC},
    {"vote.all.pred %p1, !%p2;", OP_VOTE, PT_PRED, 0, 0, 0, 0, VOTE_ALL, 1, 0, 0, 0, 2, 0},
    {"match.any.sync.b32 %r1, %r2, -1;", OP_MATCH, PT_B32, 0, 0, 0, 0, MATCH_ANY, 1, 0, 0, 0, 4,
     MF_SYNC},
    {"match.all.sync.b64 %r1|%p1, %rd1, -1;", OP_MATCH, PT_B64, 0, 0, 0, 0, MATCH_ALL, 1, 0, 0, 0,
     4, MF_SYNC},
    {"redux.sync.add.u32 %r1, %r2, -1;", OP_REDUX, PT_U32, 0, 0, 0, 0, AOP_ADD, 1, 0, 0, 0, 3,
     MF_SYNC},
    {"activemask.b32 %r1;", OP_ACTIVEMASK, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    {"bar.sync 0;", OP_BAR, 0, 0, 0, 0, 0, BAR_SYNC, 1, 0, 0, 0, 1, 0},
    {"bar.sync 1, 64;", OP_BAR, 0, 0, 0, 0, 0, BAR_SYNC, 1, 0, 0, 0, 2, 0},
    {"barrier.sync 0;", OP_BARRIER, 0, 0, 0, 0, 0, BAR_SYNC, 1, 0, 0, 0, 1, 0},
    {"barrier.sync.aligned 0;", OP_BARRIER, 0, 0, 0, 0, 0, BAR_SYNC, 1, 0, 0, 0, 1, MF_ALIGNED},
    {"bar.arrive 1, 64;", OP_BAR, 0, 0, 0, 0, 0, BAR_ARRIVE, 1, 0, 0, 0, 2, 0},
    {"bar.red.popc.u32 %r1, 0, %p1;", OP_BAR, PT_U32, 0, 0, 0, 0, BAR_RED_POPC, 1, 0, 0, 0, 4, 0},
    {"bar.red.and.pred %p1, 0, 32, !%p2;", OP_BAR, PT_PRED, 0, 0, 0, 0, BAR_RED_AND, 1, 0, 0, 0,
     4, 0},
    {"bar.warp.sync -1;", OP_BAR, 0, 0, 0, 0, 0, BAR_WARP_SYNC, 1, 0, 0, 0, 1, 0},
    {"membar.gl;", OP_MEMBAR, 0, 0, 0, 0, 0, 0, 1, 0, 0, SCOPE_GPU, 0, 0},
    {"membar.cta;", OP_MEMBAR, 0, 0, 0, 0, 0, 0, 1, 0, 0, SCOPE_CTA, 0, 0},
    {"fence.acq_rel.gpu;", OP_FENCE, 0, 0, 0, 0, 0, 0, 1, 0, SEM_ACQ_REL, SCOPE_GPU, 0, 0},
    {"fence.sc.sys;", OP_FENCE, 0, 0, 0, 0, 0, 0, 1, 0, SEM_SC, SCOPE_SYS, 0, 0},
    {"ret.uni;", OP_RET, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, MF_UNI},
    {"exit;", OP_EXIT, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {"trap;", OP_TRAP, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {"brkpt;", OP_BRKPT, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {"nanosleep.u32 100;", OP_NANOSLEEP, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    {"prefetch.global.L2 [%rd1];", OP_PREFETCH, 0, 0, SP_GLOBAL, 0, 0, 2, 1, 0, 0, 0, 1, 0},
    {"add.cc.u32 %r1, %r2, %r3;", OP_ADD, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, MF_CC},
    {"addc.cc.u32 %r1, %r2, %r3;", OP_ADDC, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, MF_CC},
    {"subc.u32 %r1, %r2, %r3;", OP_SUBC, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"mad.hi.cc.u32 %r1, %r2, %r3, %r4;", OP_MAD, PT_U32, 0, 0, 0, 0, MUL_HI, 1, 0, 0, 0, 4,
     MF_CC},
    {"madc.hi.u32 %r1, %r2, %r3, %r4;", OP_MADC, PT_U32, 0, 0, 0, 0, MUL_HI, 1, 0, 0, 0, 4, 0},
    {"add.sat.s32 %r1, %r2, %r3;", OP_ADD, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, MF_SAT},
    {"add.f16 %h1, %h2, %h3;", OP_ADD, PT_F16, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"add.rn.f16x2 %r1, %r2, %r3;", OP_ADD, PT_F16X2, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 3, 0},
    {"fma.rn.f16 %hf1, %hf2, %hf3, %hf1;", OP_FMA, PT_F16, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 4, 0},
    {"fma.rn.relu.bf16 %h1, %h2, %h3, %h1;", OP_FMA, PT_BF16, 0, 0, 0, RND_RN, 0, 1, 0, 0, 0, 4,
     MF_RELU},
    {"mov.b32 %r1, {%h1, %h2};", OP_MOV, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"mov.b64 %rd1, {%r1, %r2};", OP_MOV, PT_B64, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"mov.u32 %r1, %tid.x;", OP_MOV, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"neg.s32 %r1, %r2;", OP_NEG, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"rem.u64 %rd1, %rd2, 7;", OP_REM, PT_U64, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"sad.u32 %r1, %r2, %r3, %r4;", OP_SAD, PT_U32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"shr.s32 %r1, %r2, 3;", OP_SHR, PT_S32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"shl.b64 %rd1, %rd2, %r1;", OP_SHL, PT_B64, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0},
    {"cnot.b32 %r1, %r2;", OP_CNOT, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0},
    {"fns.b32 %r1, %r2, %r3, 1;", OP_FNS, PT_B32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0},
    {"ldu.global.v2.f32 {%f1, %f2}, [%rd1];", OP_LDU, PT_F32, 0, SP_GLOBAL, 0, 0, 0, 2, 0, 0, 0,
     2, 0},
    {"prefetchu.L1 [%rd1];", OP_PREFETCHU, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0},
    {"pmevent 3;", OP_PMEVENT, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    {"pmevent.mask 3;", OP_PMEVENT, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0},
    {"nop;", OP_NOP, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
};

static void test_decode(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dec_cases / sizeof dec_cases[0]; i++) {
        const dec_case *c = &dec_cases[i];
        const ptx_insn *in;
        ptx_module *m = one(c->text, &in);
        int ok = in->op == c->op && in->type == c->type && in->type2 == c->type2 &&
                 in->space == c->space && in->cmp == c->cmp && in->rnd == c->rnd &&
                 in->sub == c->sub && in->vec == c->vec && in->cop == c->cop &&
                 in->sem == c->sem && in->scope == c->scope && in->nops == c->nops &&
                 in->flags == c->flags && in->guard == -1 && in->line == 15 && in->col == 1;
        if (!ok)
            fail_msg("'%s': op %u type %u/%u space %u cmp %u rnd %u sub %u vec %u cop %u sem %u "
                     "scope %u nops %u flags 0x%x line %u col %u",
                     c->text, in->op, in->type, in->type2, in->space, in->cmp, in->rnd, in->sub,
                     in->vec, in->cop, in->sem, in->scope, in->nops, in->flags, in->line, in->col);
        /* the formatter writes back what was read */
        char buf[256];
        int len = ptx_insn_format(m, &m->funcs[0], in, buf, sizeof buf);
        assert_int_equal(len, (int)strlen(buf));
        if (strcmp(buf, c->text) && !strstr(c->text, "0x96"))
            fail_msg("'%s' formats as '%s'", c->text, buf);
        ptx_module_free(m);
    }
}

static void test_classes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int cls;
    } cases[] = {
        {"add.f64 %fd1, %fd2, %fd3;", PC_DP},       {"setp.lt.f64 %p1, %fd1, %fd2;", PC_DP},
        {"fma.rn.f64 %fd1, %fd2, %fd3, %fd4;", PC_DP}, {"cvt.rn.f32.f64 %f1, %fd1;", PC_DP},
        {"add.f32 %f1, %f2, %f3;", PC_ALU},         {"add.s64 %rd1, %rd2, %rd3;", PC_ALU},
        {"rcp.rn.f64 %fd1, %fd2;", PC_SFU},         {"ex2.approx.f32 %f1, %f2;", PC_SFU},
        {"ld.global.f64 %fd1, [%rd1];", PC_MEM},    {"bar.sync 0;", PC_BAR},
        {"vote.sync.all.pred %p1, %p2, -1;", PC_WARP}, {"ret;", PC_CTRL},
        {"trap;", PC_MISC},                         {"membar.gl;", PC_BAR},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ptx_insn *in;
        ptx_module *m = one(cases[i].text, &in);
        if (in->cls != cases[i].cls)
            fail_msg("'%s': class %u, expected %d", cases[i].text, in->cls, cases[i].cls);
        ptx_module_free(m);
    }
}

/* ---- immediates ---------------------------------------------------------------------------- */
static uint64_t imm_of(const char *text, int op)
{
    const ptx_insn *in;
    ptx_module *m = one(text, &in);
    assert_int_equal(in->ops[op].kind, OK_IMM);
    uint64_t v = in->ops[op].imm;
    ptx_module_free(m);
    return v;
}

static void test_immediates(void **state)
{
    (void)state;
    /* integers: decimal, negative (sign-extended), hex with U, octal, binary */
    assert_int_equal(imm_of("add.s32 %r1, %r2, 42;", 2), 42);
    assert_int_equal(imm_of("add.s32 %r1, %r2, -1;", 2), UINT64_MAX);
    assert_int_equal(imm_of("add.u32 %r1, %r2, 0xFFFFFFFFU;", 2), 0xffffffffull);
    assert_int_equal(imm_of("add.s64 %rd1, %rd2, 0777;", 2), 511);
    assert_int_equal(imm_of("add.s64 %rd1, %rd2, 0b101;", 2), 5);
    assert_int_equal(imm_of("or.b64 %rd1, %rd2, -9223372036854775808;", 2), 0x8000000000000000ull);
    assert_int_equal(imm_of("add.u64 %rd1, %rd2, 18446744073709551615;", 2), UINT64_MAX);
    /* 0f / 0d / decimal floats in the instruction's float type */
    assert_int_equal(imm_of("add.f32 %f1, %f2, 0f3F800000;", 2), 0x3F800000);
    assert_int_equal(imm_of("add.f32 %f1, %f2, 1.5;", 2), 0x3FC00000);
    assert_int_equal(imm_of("add.f32 %f1, %f2, 2;", 2), 0x40000000);
    assert_int_equal(imm_of("add.f32 %f1, %f2, -0f3F800000;", 2), 0xBF800000);
    assert_int_equal(imm_of("add.f32 %f1, %f2, 0d3FF0000000000000;", 2), 0x3F800000);
    assert_int_equal(imm_of("add.f64 %fd1, %fd2, 0f3F800000;", 2), 0x3FF0000000000000ull);
    assert_int_equal(imm_of("add.f64 %fd1, %fd2, 0.1;", 2), 0x3FB999999999999Aull);
    assert_int_equal(imm_of("add.f64 %fd1, %fd2, 1e3;", 2), 0x408F400000000000ull);
    assert_int_equal(imm_of("add.f64 %fd1, %fd2, -2;", 2), 0xC000000000000000ull);
    /* 0f with an untyped or integer operand keeps its bits */
    assert_int_equal(imm_of("mov.b32 %r1, 0f3F800000;", 1), 0x3F800000);
    assert_int_equal(imm_of("mov.b64 %rd1, 0dBFF0000000000000;", 1), 0xBFF0000000000000ull);
    /* half precision: round to nearest even, overflow, subnormals, signed zero */
    assert_int_equal(imm_of("add.f16 %h1, %h2, 1.0;", 2), 0x3C00);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 0f3F800000;", 2), 0x3C00);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 0.1;", 2), 0x2E66);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 65504;", 2), 0x7BFF);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 65520;", 2), 0x7C00);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 5.960464477539063e-08;", 2), 0x0001);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 3e-8;", 2), 0x0001);
    assert_int_equal(imm_of("add.f16 %h1, %h2, 1e-8;", 2), 0x0000);
    assert_int_equal(imm_of("add.f16 %h1, %h2, -0.0;", 2), 0x8000);
    assert_int_equal(imm_of("add.rn.bf16 %h1, %h2, 1.0;", 2), 0x3F80);
    assert_int_equal(imm_of("add.rn.bf16 %h1, %h2, 0f3F808000;", 2), 0x3F80);
    assert_int_equal(imm_of("add.rn.bf16 %h1, %h2, 0f3F818000;", 2), 0x3F82);
    /* operand types: cvt source, setp comparison type, set source type, selp */
    assert_int_equal(imm_of("cvt.rn.f32.f64 %f1, 0.5;", 1), 0x3FE0000000000000ull);
    assert_int_equal(imm_of("cvt.rn.f32.s32 %f1, -3;", 1), (uint64_t)-3);
    assert_int_equal(imm_of("setp.lt.f32 %p1, %f1, 0.5;", 3), 0x3F000000);
    assert_int_equal(imm_of("set.lt.u32.f64 %r1, %fd1, 1;", 2), 0x3FF0000000000000ull);
    assert_int_equal(imm_of("selp.f32 %f1, 1.0, %f2, %p1;", 1), 0x3F800000);
    assert_int_equal(imm_of("mov.pred %p1, 1;", 1), 1);
    assert_int_equal(imm_of("shl.b64 %rd1, %rd2, 3;", 2), 3);
    assert_int_equal(imm_of("lop3.b32 %r1, %r2, %r3, %r4, 0x96;", 4), 0x96);
    assert_int_equal(imm_of("st.global.f32 [%rd1], 0.25;", 1), 0x3E800000);
    assert_int_equal(imm_of("atom.global.cas.b32 %r1, [%rd1], 0, -1;", 3), UINT64_MAX);
}

/* ---- operands ------------------------------------------------------------------------------ */
static void test_operands(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(WRAP(
        "ld.global.v2.u32 {%r1, _}, [%rd1+-4];\n"   /* 0 */
        "ld.global.u32 %r2, [gv+8];\n"               /* 1 */
        "ld.global.u32 %r3, [256];\n"                /* 2 */
        "mov.b64 {%r4, %r5}, %rd2;\n"               /* 3 */
        "mov.u32 %r6, %ctaid.y;\n"                   /* 4 */
        "mov.u64 %rd3, gv;\n"                        /* 5 */
        "mov.u32 %r7, sh;\n"                         /* 6 */
        "@!%p1 add.s32 %r8, %r8, 1;\n"               /* 7 */
        "setp.eq.s32 %p2, %r1, 0;\n"                 /* 8 */
        "mov.u32 %r9, %laneid;\n"                    /* 9 */
        "mov.u64 %rd4, gv+16;\n"                     /* 10 */
        "ld.param.u64 %rd5, [kp];"));                /* 11 */
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].ops[0].kind, OK_VEC);
    assert_int_equal(in[0].ops[0].n, 2);
    assert_int_equal(m->pool[in[0].ops[0].r], reg_slot(f, m, "%r1"));
    assert_int_equal(m->pool[in[0].ops[0].r + 1], UINT32_MAX);
    assert_int_equal(in[0].ops[1].kind, OK_ADDR);
    assert_int_equal(in[0].ops[1].base, OK_REG);
    assert_int_equal(in[0].ops[1].r, reg_slot(f, m, "%rd1"));
    assert_int_equal(in[0].ops[1].imm, (uint64_t)-4);
    assert_int_equal(in[1].ops[1].base, OK_SYM);
    assert_int_equal(in[1].ops[1].r, ptx_find_sym(m, "gv"));
    assert_int_equal(in[1].ops[1].imm, 8);
    assert_int_equal(in[2].ops[1].base, OK_NONE);
    assert_int_equal(in[2].ops[1].imm, 256);
    assert_int_equal(in[3].ops[0].kind, OK_VEC);
    assert_int_equal(in[3].ops[1].kind, OK_REG);
    assert_int_equal(in[4].ops[1].kind, OK_SREG);
    assert_int_equal(in[4].ops[1].r, SR_CTAID_Y);
    assert_int_equal(in[5].ops[1].kind, OK_SYM);
    assert_int_equal(in[5].ops[1].r, ptx_find_sym(m, "gv"));
    assert_int_equal(in[6].ops[1].kind, OK_SYM);
    assert_int_equal(in[6].ops[1].r, sym_index(m, sym_in(m, 0, "sh")));
    assert_int_equal(in[7].guard, reg_slot(f, m, "%p1"));
    assert_int_equal(in[7].guard_neg, 1);
    assert_string_equal(fmt(m, f, 7), "@!%p1 add.s32 %r8, %r8, 1;");
    assert_int_equal(in[8].nops, 4);
    assert_int_equal(in[8].ops[1].kind, OK_NONE);
    assert_int_equal(in[8].ops[3].kind, OK_IMM);
    assert_int_equal(in[9].ops[1].r, SR_LANEID);
    assert_int_equal(in[10].ops[1].kind, OK_SYM);
    assert_int_equal(in[10].ops[1].imm, 16);
    assert_int_equal(in[11].ops[1].r, m->funcs[0].params[0]);
    /* slots: %p<8> %h<8> %hf<4> %r<16> %f<8> %rd<8> %fd<8> */
    assert_int_equal(f->n_regs, 60);
    assert_int_equal(f->regs[reg_slot(f, m, "%hf2")].type, PT_F16);
    assert_int_equal(f->regs[reg_slot(f, m, "%r15")].type, PT_B32);
    assert_int_equal(reg_slot(f, m, "%r16"), -1);
    ptx_module_free(m);
}

static void test_setp_shfl_slots(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(WRAP("setp.lt.or.f32 %p1|%p2, %f1, %f2, !%p3;\n"
                                  "shfl.sync.bfly.b32 %r1, %r2, 4, 31, -1;\n"
                                  "match.all.sync.b32 %r1|%p4, %r2, -1;\n"
                                  "bar.red.or.pred %p5, 1, %p6;\n"
                                  "vote.sync.uni.pred %p1, !%p2, -1;"));
    const ptx_func *f = &m->funcs[0];
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].nops, 5);
    assert_int_equal(in[0].ops[0].r, reg_slot(f, m, "%p1"));
    assert_int_equal(in[0].ops[1].r, reg_slot(f, m, "%p2"));
    assert_int_equal(in[0].ops[4].r, reg_slot(f, m, "%p3"));
    assert_int_equal(in[0].ops[4].neg, 1);
    assert_int_equal(in[0].sub, BOOL_OR);
    assert_int_equal(in[1].ops[1].kind, OK_NONE);
    assert_int_equal(in[1].ops[3].imm, 4);
    assert_int_equal(in[1].ops[5].imm, UINT64_MAX);
    assert_int_equal(in[2].ops[1].r, reg_slot(f, m, "%p4"));
    assert_int_equal(in[2].ops[3].imm, UINT64_MAX);
    assert_int_equal(in[3].sub, BAR_RED_OR);
    assert_int_equal(in[3].ops[0].r, reg_slot(f, m, "%p5"));
    assert_int_equal(in[3].ops[2].kind, OK_NONE);
    assert_int_equal(in[3].ops[3].r, reg_slot(f, m, "%p6"));
    assert_int_equal(in[4].ops[1].neg, 1);
    assert_string_equal(fmt(m, f, 0), "setp.lt.or.f32 %p1|%p2, %f1, %f2, !%p3;");
    assert_string_equal(fmt(m, f, 3), "bar.red.or.pred %p5, 1, %p6;");
    ptx_module_free(m);
}

/* ---- symbols and layout -------------------------------------------------------------------- */
static const char layout_src[] =
    HDR
    ".shared .align 4 .b8 sa[12];\n"
    ".shared .align 16 .f32 sb[3];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .align 8 .b8 g[10];\n"
    ".func (.param .b64 rv) f(.param .b32 a, .param .align 16 .b8 b[20])\n"
    "{\n"
    ".local .align 4 .b8 loc[6];\n"
    "ret;\n"
    "}\n"
    ".entry k(.param .u8 k0, .param .u64 k1, .param .align 16 .b8 k2[20], .param .u16 k3)\n"
    "{\n"
    ".shared .align 8 .b8 ks[5];\n"
    ".shared .u32 kt;\n"
    ".local .align 8 .b8 depot[12];\n"
    "{\n"
    ".param .b32 a0;\n"
    ".param .align 16 .b8 a1[20];\n"
    ".param .b64 r0;\n"
    "call (r0), f, (a0, a1);\n"
    "}\n"
    "ret;\n"
    "}\n";

static void test_layout(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(layout_src);
    int fi = ptx_find_func(m, "f"), ki = ptx_find_func(m, "k");
    const ptx_func *f = &m->funcs[fi], *k = &m->funcs[ki];
    assert_int_equal(sym_in(m, -1, "sa")->addr, 0);
    assert_int_equal(sym_in(m, -1, "sb")->addr, 16);
    assert_int_equal(sym_in(m, -1, "sb")->size, 12);
    assert_int_equal(m->shared_static, 28);
    const ptx_symbol *dyn = sym_in(m, -1, "dyn");
    assert_true(dyn->is_extern);
    assert_int_equal(dyn->size, 0);
    assert_int_equal(dyn->addr, 0);
    assert_int_equal(dyn->align, 16);
    assert_int_equal(sym_in(m, -1, "g")->addr, 0);
    assert_int_equal(sym_in(m, -1, "g")->space, SP_GLOBAL);
    assert_int_equal(sym_in(m, -1, "g")->init, UINT32_MAX);

    /* .func frame: rv 0..8, a 8..12, b (align 16) 16..36, loc 36..42, rounded to 16 */
    assert_int_equal(sym_in(m, fi, "rv")->addr, 0);
    assert_int_equal(sym_in(m, fi, "a")->addr, 8);
    assert_int_equal(sym_in(m, fi, "b")->addr, 16);
    assert_int_equal(sym_in(m, fi, "loc")->addr, 36);
    assert_int_equal(sym_in(m, fi, "loc")->space, SP_LOCAL);
    assert_int_equal(f->frame_size, 48);
    assert_int_equal(f->frame_align, 16);
    assert_int_equal(f->n_rets, 1);
    assert_int_equal(f->rets[0], sym_index(m, sym_in(m, fi, "rv")));
    assert_true(sym_in(m, fi, "rv")->is_param);

    /* kernel parameter buffer: u8 0, u64 8, [20] align 16 at 16, u16 36 */
    assert_int_equal(sym_in(m, ki, "k0")->addr, 0);
    assert_int_equal(sym_in(m, ki, "k1")->addr, 8);
    assert_int_equal(sym_in(m, ki, "k2")->addr, 16);
    assert_int_equal(sym_in(m, ki, "k3")->addr, 36);
    assert_int_equal(k->param_size, 38);
    /* the kernel's own shared data follows the module's 28 bytes */
    assert_int_equal(sym_in(m, ki, "ks")->addr, 32);
    assert_int_equal(sym_in(m, ki, "kt")->addr, 40);
    assert_int_equal(k->shared_static, 16);
    /* kernel frame: depot 0..12, call-site a0 12, a1 16..36, r0 40..48 */
    assert_int_equal(sym_in(m, ki, "depot")->addr, 0);
    assert_int_equal(sym_in(m, ki, "a0")->addr, 12);
    assert_int_equal(sym_in(m, ki, "a1")->addr, 16);
    assert_int_equal(sym_in(m, ki, "r0")->addr, 40);
    assert_int_equal(k->frame_size, 48);
    assert_int_equal(k->frame_align, 16);

    const ptx_insn *call = &k->insns[0];
    assert_int_equal(call->op, OP_CALL);
    assert_int_equal(call->flags & MF_UNI, 0);
    assert_int_equal(call->ops[1].r, fi);
    assert_int_equal(call->ops[0].n, 1);
    assert_int_equal(m->pool[call->ops[0].r], sym_index(m, sym_in(m, ki, "r0")));
    assert_int_equal(call->ops[2].n, 2);
    assert_int_equal(m->pool[call->ops[2].r], sym_index(m, sym_in(m, ki, "a0")));
    assert_int_equal(m->pool[call->ops[2].r + 1], sym_index(m, sym_in(m, ki, "a1")));
    ptx_module_free(m);
}

static void test_initializers(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HDR
        ".global .align 4 .u32 a[4] = {1, -2, 0x10, 0777};\n"
        ".global .f32 b[] = {1.5, 0f3F800000, -2};\n"
        ".const .f64 c = 0f3F800000;\n"
        ".global .s16 d[2][2] = {{1, 2}, {3}};\n"
        ".global .b8 e[5] = {104, 105};\n"
        ".global .f16 h[2] = {1.0, -2};\n"
        ".global .u64 z[2];\n"
        ".global .s8 n1 = -1;\n"
        ".global .b16 q[][2] = {1, 2, 3};\n"
        ".global .v2 .u32 v[2] = {{1, 2}, {3, 4}};\n");
    const ptx_symbol *s = sym_in(m, -1, "a");
    uint32_t u[4];
    assert_int_equal(s->size, 16);
    memcpy(u, m->init + s->init, 16);
    assert_int_equal(u[0], 1);
    assert_int_equal(u[1], 0xFFFFFFFEu);
    assert_int_equal(u[2], 16);
    assert_int_equal(u[3], 511);
    s = sym_in(m, -1, "b");
    assert_int_equal(s->size, 12);
    memcpy(u, m->init + s->init, 12);
    assert_int_equal(u[0], 0x3FC00000);
    assert_int_equal(u[1], 0x3F800000);
    assert_int_equal(u[2], 0xC0000000);
    s = sym_in(m, -1, "c");
    uint64_t dv;
    memcpy(&dv, m->init + s->init, 8);
    assert_int_equal(dv, 0x3FF0000000000000ull);
    assert_int_equal(s->space, SP_CONST);
    s = sym_in(m, -1, "d");
    int16_t sh[4];
    assert_int_equal(s->size, 8);
    memcpy(sh, m->init + s->init, 8);
    assert_true(sh[0] == 1 && sh[1] == 2 && sh[2] == 3 && sh[3] == 0);
    s = sym_in(m, -1, "e");
    assert_memory_equal(m->init + s->init, "hi\0\0\0", 5);
    s = sym_in(m, -1, "h");
    uint16_t hv[2];
    memcpy(hv, m->init + s->init, 4);
    assert_int_equal(hv[0], 0x3C00);
    assert_int_equal(hv[1], 0xC000);
    assert_int_equal(sym_in(m, -1, "z")->init, UINT32_MAX);
    assert_int_equal(sym_in(m, -1, "z")->size, 16);
    s = sym_in(m, -1, "n1");
    assert_int_equal(m->init[s->init], 0xFF);
    s = sym_in(m, -1, "q"); /* 3 values fill 2 rows of 2 */
    assert_int_equal(s->size, 8);
    memcpy(hv, m->init + s->init + 4, 4);
    assert_int_equal(hv[0], 3);
    assert_int_equal(hv[1], 0);
    s = sym_in(m, -1, "v");
    assert_int_equal(s->size, 16);
    assert_int_equal(s->align, 8);
    memcpy(u, m->init + s->init, 16);
    assert_true(u[0] == 1 && u[1] == 2 && u[2] == 3 && u[3] == 4);
    ptx_module_free(m);

    /* empty arrays and empty initializers */
    m = parse_ok(HDR ".global .u32 e0[0] = {};\n.global .u32 e1[] = {};\n"
                     ".global .u8 e2[][0] = {};\n");
    assert_int_equal(sym_in(m, -1, "e0")->size, 0);
    assert_int_equal(sym_in(m, -1, "e1")->size, 0);
    assert_int_equal(sym_in(m, -1, "e2")->size, 0);
    assert_int_equal(sym_in(m, -1, "e2")->init, 0);
    ptx_module_free(m);
}

/* Scoped blocks: names declared in a { } block shadow and disappear with it. */
static void test_scopes(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HDR
        ".func (.param .b32 rv) g(.param .b32 x)\n{\nret;\n}\n"
        ".entry k()\n"
        "{\n"
        ".reg .b32 %r<4>;\n"
        "{\n"
        ".reg .b32 %r1;\n"              /* shadows the outer %r1 */
        ".param .b32 param0;\n"
        ".param .b32 retval0;\n"
        "mov.u32 %r1, 5;\n"             /* 0 */
        "call.uni (retval0), g, (param0);\n"
        "}\n"
        "{\n"
        ".param .b32 param0;\n"          /* a second param0 in its own block */
        ".param .b32 retval0;\n"
        "call.uni (retval0), g, (param0);\n" /* 2 */
        "}\n"
        "mov.u32 %r1, 6;\n"             /* 3: the outer %r1 again */
        "}\n");
    const ptx_func *k = func(m, "k");
    int ki = ptx_find_func(m, "k");
    assert_int_equal(k->n_regs, 5);
    assert_int_equal(k->insns[0].ops[0].r, 4);
    assert_int_equal(k->insns[3].ops[0].r, 1);
    assert_int_not_equal(m->pool[k->insns[1].ops[2].r], m->pool[k->insns[2].ops[2].r]);
    int params = 0;
    for (uint32_t i = 0; i < m->n_syms; i++)
        params += m->syms[i].func == ki && !strcmp(ptx_str(m, m->syms[i].name), "param0");
    assert_int_equal(params, 2);
    /* both call blocks get frame space: 4 params of 4 bytes */
    assert_int_equal(k->frame_size, 16);
    ptx_module_free(m);
}

static void test_labels(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HDR
        ".entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
        "@%p1 bra $L__BB0_2;\n"     /* 0: forward */
        "$L__BB0_1:\n"
        "add.s32 %r1, %r1, 1;\n"    /* 1 */
        "@%p1 bra.uni $L__BB0_1;\n" /* 2: backward */
        "$L__BB0_2:\n"
        "$L__BB0_3:\n"
        "bra $L__BB0_4;\n"          /* 3 */
        "$L__BB0_4:\n"
        "}\n"                       /* 4: implicit ret, the target of bra $L__BB0_4 */
        ".func f()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r1, 1;\n}\n");
    const ptx_func *k = func(m, "k");
    assert_int_equal(k->n_insns, 5);
    assert_int_equal(k->insns[0].ops[0].kind, OK_LABEL);
    assert_int_equal(k->insns[0].ops[0].r, 3);
    assert_int_equal(k->insns[2].ops[0].r, 1);
    assert_true(k->insns[2].flags & MF_UNI);
    assert_int_equal(k->insns[3].ops[0].r, 4);
    assert_int_equal(k->insns[4].op, OP_RET);
    assert_int_equal(k->insns[4].guard, -1);
    assert_string_equal(fmt(m, k, 0), "@%p1 bra L3;");
    /* a body that falls off its end returns */
    const ptx_func *f = func(m, "f");
    assert_int_equal(f->n_insns, 2);
    assert_int_equal(f->insns[1].op, OP_RET);
    ptx_module_free(m);
}

static void test_directives(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(
        "// comment\n/* block\ncomment */\n"
        ".version 8.7\n.target sm_90a, debug\n.address_size 64\n"
        ".pol \"LRR\";\n"
        ".file 1 \"/tmp/a.cu\", 1700000000, 1234\n"
        ".pragma \"nounroll\";\n"
        ".weak .func w();\n"
        ".visible .entry k(.param .u64 .ptr .global .align 16 p) .reqntid 64, 2 .maxnreg 32\n"
        "{\n"
        ".pragma \"warpsim.policy GTO\";\n"
        ".loc 1 5 3\n"
        ".loc 2 7 9, function_name $L__info_string0, inlined_at 1 5 3\n"
        ".loc 1 8 1, function_name $L__info_string0+4\n"
        "ret;\n"
        "}\n"
        ".entry k2() .maxntid 32 .minnctapersm 1 .noreturn\n{\nexit;\n}\n"
        ".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0 /* } */ // }\n\"}\"\n}\n"
        ".section .debug_abbrev { .b8 1, 2 { nested } }\n");
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->version_minor, 7);
    assert_string_equal(m->target, "sm_90a");
    assert_string_equal(m->policy, "LRR");
    const ptx_func *k = func(m, "k");
    assert_string_equal(k->policy, "GTO");
    assert_int_equal(k->reqntid[0], 64);
    assert_int_equal(k->reqntid[1], 2);
    assert_int_equal(k->reqntid[2], 1);
    assert_int_equal(k->maxnreg, 32);
    assert_int_equal(k->maxntid[0], 0);
    assert_int_equal(k->param_size, 8);
    const ptx_func *k2 = func(m, "k2");
    assert_int_equal(k2->maxntid[0], 32);
    assert_int_equal(k2->maxntid[1], 1);
    assert_int_equal(k2->minnctapersm, 1);
    assert_null(k2->policy);
    const ptx_func *w = func(m, "w");
    assert_true(w->is_decl);
    assert_true(w->is_visible);
    ptx_module_free(m);

    /* the pragma form at module scope; a later directive wins */
    m = parse_ok(HDR ".pragma \"warpsim.policy  GTO \";\n.entry k()\n{\nret;\n}\n");
    assert_string_equal(m->policy, "GTO");
    assert_null(m->funcs[0].policy);
    assert_int_equal(m->funcs[0].ptxas_regs, 0);
    ptx_module_free(m);

    /* ptxas's register counts: before or after the function, in a list, or inside a
     * body; the same count twice is fine; other pragmas in the list are ignored */
    m = parse_ok(HDR ".pragma \"warpsim.regs k2 7\";\n"
                 ".entry k()\n{\n.pragma \"warpsim.regs\tk 51\";\nret;\n}\n"
                 ".entry k2()\n{\nret;\n}\n"
                 ".pragma \"nounroll\", \"warpsim.regs k2 7\";\n");
    assert_int_equal(func(m, "k")->ptxas_regs, 51);
    assert_int_equal(func(m, "k2")->ptxas_regs, 7);
    assert_int_equal(func(m, "k")->maxnreg, 0);
    ptx_module_free(m);
}

/* A prototype and its definition are one function; calls before the body resolve. */
static void test_prototypes(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HDR
        ".func (.param .b32 r) f(.param .b32 a);\n"
        ".entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
        "{\n.param .b32 p0;\n.param .b32 r0;\ncall.uni (r0), f, (p0);\n}\n"
        "mov.u64 %rd1, f;\n"
        "{\n.param .b32 p0;\n.param .b32 r0;\n"
        "pr : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "call (r0), %rd1, (p0), pr;\n}\n"
        "ret;\n}\n"
        ".func (.param .b32 r2) f(.param .b32 a2)\n{\n.reg .b32 %r<2>;\n"
        "ld.param.b32 %r1, [a2];\nst.param.b32 [r2], %r1;\nret;\n}\n");
    assert_int_equal(m->n_funcs, 2);
    int fi = ptx_find_func(m, "f");
    const ptx_func *f = &m->funcs[fi];
    assert_false(f->is_decl);
    assert_string_equal(ptx_str(m, m->syms[f->params[0]].name), "a2");
    assert_string_equal(ptx_str(m, m->syms[f->rets[0]].name), "r2");
    assert_int_equal(f->insns[0].ops[1].r, f->params[0]);
    const ptx_func *k = func(m, "k");
    assert_int_equal(k->insns[0].ops[1].r, fi);
    assert_int_equal(k->insns[1].ops[1].kind, OK_FUNC);
    assert_int_equal(k->insns[1].ops[1].r, fi);
    assert_int_equal(k->insns[2].ops[1].kind, OK_REG);
    assert_string_equal(fmt(m, k, 2), "call (r0), %rd1, (p0);");
    ptx_module_free(m);
}

static void test_find(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HDR ".extern .global .u32 x;\n.global .u32 x = 3;\n"
                                 ".entry k()\n{\n.local .u32 y;\nret;\n}\n");
    int x = ptx_find_sym(m, "x");
    assert_true(x >= 0);
    assert_false(m->syms[x].is_extern);
    assert_int_equal(m->syms[x].init != UINT32_MAX, 1);
    assert_int_equal(ptx_find_sym(m, "y"), -1);
    assert_int_equal(ptx_find_sym(m, "nope"), -1);
    assert_int_equal(ptx_find_func(m, "k"), 0);
    assert_int_equal(ptx_find_func(m, "nope"), -1);
    assert_string_equal(m->file, "t.ptx");
    ptx_module_free(m);
    ptx_module_free(NULL);
}

/* ---- errors ----------------------------------------------------------------------------------- */
/* Body text starts at line 9, column 1. */
#define K(body) HDR ".entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n.reg .b64 %rd<2>;\n" \
    body "\n}\n"

typedef struct {
    const char *src;
    uint32_t line, col;
    const char *frag;
} err_case;

static const err_case err_cases[] = {
    /* lexer */
    {K("#"), 9, 1, "unexpected character '#'"},
    {K("mov.u32 %r1, 0fXYZ;"), 9, 14, "malformed 0f constant"},
    {K("mov.u32 %r1, 0d3FF;"), 9, 14, "malformed 0d constant"},
    {K("mov.u64 %rd1, 99999999999999999999999;"), 9, 15, "integer constant out of range"},
    {K("mov.u64 %rd1, 0x11112222333344445;"), 9, 15, "integer constant out of range"},
    {K("mov.u32 %r1, 09;"), 9, 14, "malformed octal constant"},
    {K("mov.u32 %r1, 12ab;"), 9, 14, "malformed numeric constant"},
    {K("mov.f32 %r1, 1e+;"), 9, 14, "malformed floating constant"},
    {K("/* never closed"), 9, 1, "unterminated comment"},
    {K(".pragma \"abc;"), 9, 9, "unterminated string"},
    {HDR "\x01", 4, 1, "unexpected character (byte 0x01)"},
    {"\xef\xbb\xbf#", 1, 1, "unexpected character '#'"}, /* after a byte order mark */
    /* syntax */
    {K("add.s32 %r1, %r2, %r3"), 10, 1, "expected ';', found '}'"},
    {K("add.s32 %r1, %r2 %r3;"), 9, 18, "expected ';', found '%r3'"},
    {HDR ".entry k()\n{\nret;\n", 7, 1, "missing '}'"},
    {HDR ".frob 1;\n", 4, 1, "unknown directive '.frob'"},
    {HDR "mov.u32 %r1, 1;\n", 4, 1, "expected a directive"},
    {K(".frob;"), 9, 1, "unexpected directive '.frob' in a function body"},
    {K("[%rd1];"), 9, 1, "expected an instruction or a directive"},
    {HDR ".version 9.x\n", 4, 10, "malformed numeric constant"},
    {HDR ".address_size 48\n", 4, 1, ".address_size must be 32 or 64"},
    {HDR ".section .debug_str {\n.b8 1\n", 4, 21, "unterminated '{' block"},
    {HDR ".visible .reg .b32 %r;\n", 4, 10, "expected '.entry', '.func' or a variable"},
    /* instructions */
    {K("frob.u32 %r1, %r2;"), 9, 1, "unknown instruction 'frob.u32'"},
    {K("tex.1d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0}];"), 9, 1,
     "kernel 'k': instruction 'tex': textures and surfaces are not supported by warpsim"},
    {K("@%p1 suld.b.2d.b32.trap {%r0}, [%rd1, {%r0, %r1}];"), 9, 6,
     "kernel 'k': instruction 'suld': textures and surfaces are not supported by warpsim"},
    {K("ld.global.foo.u32 %r1, [%rd1];"), 9, 1,
     "unknown instruction 'ld.global.foo.u32' (unknown modifier '.foo')"},
    {K("ld.global.v8.f32 %r1, [%rd1];"), 9, 1, "bad vector width '.v8'"},
    {K("add.rn.s32 %r1, %r2, %r3;"), 9, 1, "unknown instruction 'add.rn.s32'"},
    {K("add.s32.s32 %r1, %r2, %r3;"), 9, 1, "too many types"},
    {K("add %r1, %r2, %r3;"), 9, 1, "needs a type"},
    {K("ld.global.shared.u32 %r1, [%rd1];"), 9, 1, "conflicting modifiers"},
    {K("mul.s32 %r1, %r2, %r3;"), 9, 1, "needs .lo, .hi or .wide"},
    {K("mul.lo.f32 %r1, %r2, %r3;"), 9, 1, ".lo/.hi/.wide need an integer type"},
    {K("setp.lt.b32 %p1, %r1, %r2;"), 9, 1, "only eq and ne compare untyped bits"},
    {K("setp.ltu.s32 %p1, %r1, %r2;"), 9, 1, "unordered comparisons need"},
    {K("setp.s32 %p1, %r1, %r2;"), 9, 1, "needs a comparison"},
    {K("ld.nc.u32 %r1, [%rd1];"), 9, 1, ".nc needs .global"},
    {K("st.acquire.gpu.u32 [%rd1], %r1;"), 9, 1, "st cannot be .acquire"},
    {K("ld.relaxed.global.u32 %r1, [%rd1];"), 9, 1, "ordering needs a scope"},
    {K("atom.global.add.b32 %r1, [%rd1], 1;"), 9, 1, ".add needs a typed operand"},
    {K("atom.global.u32 %r1, [%rd1], 1;"), 9, 1, "needs an operation"},
    {K("red.global.cas.b32 [%rd1], 1;"), 9, 1, "red has no .cas or .exch"},
    {K("bar.red.u32 %r1, 0, %p1;"), 9, 1, ".red needs .popc, .and or .or"},
    {K("bar 0;"), 9, 1, "needs exactly one of .sync, .arrive, .red"},
    {K("vote.sync.ballot.pred %p1, %p1, -1;"), 9, 1, "vote.ballot needs .b32"},
    {K("shf.l.b32 %r1, %r2, %r3, %r1;"), 9, 1, "needs exactly one of .wrap and .clamp"},
    {K("sin.f32 %r1, %r1;"), 9, 1, "needs .approx"},
    {K("cvt.rn.s32.s32 %r1, %r2;"), 9, 1, "rounding needs a floating-point type"},
    {K("cvta.u64 %rd1, %rd1;"), 9, 1, "needs a state space"},
    {K("membar;"), 9, 1, "needs .cta, .gl or .sys"},
    {K("brx.idx %r1, tl;"), 9, 1, "brx.idx is not supported"},
    {K("match.any.b32 %r1, %r2, -1;"), 9, 1, "needs .sync and .any or .all"},
    {K("redux.sync.add.b32 %r1, %r2, -1;"), 9, 1, "bitwise reductions need .b32"},
    {K("min.NaN.s32 %r1, %r2, %r3;"), 9, 1, ".NaN needs a floating-point type"},
    /* operands */
    {K("add.s32 %r1, %r2;"), 9, 1, "wrong number of operands for 'add.s32' (expected 3, found 2)"},
    {K("bar.sync 1, 2, 3;"), 9, 1, "(expected 1 or 2, found 3)"},
    {K("setp.eq.s32 %p1, %r1;"), 9, 1, "wrong number of operands for 'setp.eq.s32'"},
    {K("shfl.sync.up.b32 %r1, %r2, 1, 0;"), 9, 1, "wrong number of operands for 'shfl"},
    {K("setp.eq.and.s32 %p1, %r1, %r2;"), 9, 1, "a boolean operation needs a predicate operand c"},
    {K("setp.eq.s32 %p1, %r1, %r2, %p1;"), 9, 1, "predicate operand c needs .and, .or or .xor"},
    {K("add.s32 %r1, [%rd1], %r2;"), 9, 14,
     "operand 2 of 'add.s32': expected a register or a constant"},
    {K("add.s32 5, %r1, %r2;"), 9, 9, "operand 1 of 'add.s32': expected a destination register"},
    {K("ld.global.u32 %r1, %rd1;"), 9, 20, "expected an address in [ ]"},
    {K("add.s64 %r1, %rd1, %rd1;"), 9, 9, "register '%r1' (.b32) is narrower than the .s64 operand"},
    {K("add.s32 %r1, %p1, %r2;"), 9, 14, "predicate '%p1' used as a data operand"},
    {K("selp.b32 %r1, %r2, %r3, %r1;"), 9, 25, "'%r1' is not a predicate register"},
    {K("add.s32 %r1, !%r2, %r3;"), 9, 14, "'!' is not allowed here"},
    {K("add.s32 %r1, %r2, 1.5;"), 9, 19, "needs a floating-point operand"},
    {K("ld.global.v4.u32 {%r1, %r2}, [%rd1];"), 9, 18, "vector operand has 2 elements, expected 4"},
    {K("ld.global.v2.u32 %r1, [%rd1];"), 9, 18, "expected a vector of 2 registers"},
    {K("ld.global.v2.u32 {%r1, 0}, [%rd1];"), 9, 24, "expected a register, found '0'"},
    {K("mov.b64 {%r1, %r2}, {%r1, %r2};"), 9, 21, "only one side of a mov can be a vector"},
    {K("mov.b64 {%r1, %r2, %r3}, %rd1;"), 9, 9, "a packing mov takes 2 or 4 registers"},
    {K("st.global.u32 [%rd1], _;"), 9, 23, "'_' cannot be a source"},
    {K("add.s32 %r1|%r2, %r1, %r2;"), 9, 13, "unexpected '|'"},
    {K("mov.u32 %r1, %tid;"), 9, 18, "expected '.x', '.y' or '.z'"},
    {K("lop3.b32 %r1, %r1, %r1, %r1, %r1;"), 9, 30, "expected an integer constant"},
    {K("mov.f32 %r1, %tid.x;"), 9, 14, "special register used as a .f32 operand"},
    /* names */
    {K("add.s32 %r1, %r9, %r2;"), 9, 14, "undefined register '%r9'"},
    {K("ld.global.u32 %r1, [%rd7];"), 9, 21, "undefined register '%rd7'"},
    {K("bra $L_nowhere;"), 9, 5, "undefined label '$L_nowhere'"},
    {K("mov.u32 %r1, nosuch;"), 9, 14, "undefined symbol 'nosuch'"},
    {K("@%p5 ret;"), 9, 2, "undefined register '%p5'"},
    {K("@%r1 ret;"), 9, 2, "guard '%r1' is not a predicate register"},
    {K(".reg .b32 %r1;"), 9, 11, "duplicate definition of '%r1'"},
    {K("L1:\nL1:"), 10, 1, "duplicate label 'L1'"},
    {K("call nosuch, ();"), 9, 6, "undefined function 'nosuch'"},
    {K("call %rd1, ();"), 9, 6, "an indirect call needs a prototype"},
    {K("call %rd1, (), nop;"), 9, 16, "undefined call prototype 'nop'"},
    {K("call k, ();"), 9, 6, "cannot call kernel 'k'"},
    {K("call (%r1), k, ();"), 9, 7, "expected a .param variable"},
    {HDR ".global .u32 a;\n.global .u32 a;\n", 5, 14, "duplicate definition of 'a'"},
    {HDR ".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n", 8, 8,
     "duplicate definition of function 'k'"},
    {HDR ".func f(.param .b32 a);\n.func f(.param .b64 a)\n{\nret;\n}\n", 5, 7,
     "conflicting declaration of 'f'"},
    {HDR ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\n{\n.param .b64 x;\ncall f, (x);\n}\n}\n",
     12, 6, "argument 1 of the call to 'f' has 8 bytes, the parameter 4"},
    {HDR ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\ncall f, ();\n}\n", 10, 6,
     "call to 'f' takes 1 argument(s), found 0"},
    {HDR ".entry (.param .b32 r) k()\n{\nret;\n}\n", 4, 8, "a kernel (.entry) cannot return values"},
    {HDR ".func f(.reg .b32 a)\n{\nret;\n}\n", 4, 9, "register parameters are not supported"},
    /* declarations */
    {HDR ".global .u32 a[2] = {1, 2, 3};\n", 4, 28, "too many initializers for 'a'"},
    {HDR ".global .u64 p = generic(x);\n", 4, 18, "symbol addresses in initializers are not supported"},
    {HDR ".global .u32 x;\n.global .u64 p[1] = {x};\n", 5, 22, "symbol addresses in initializers"},
    {HDR ".global .u32 a = 1.5;\n", 4, 18, "needs a floating-point operand"},
    {HDR ".shared .u32 s = 1;\n", 4, 16, "only .global and .const variables can be initialized"},
    {HDR ".global .u32 a[];\n", 4, 14, "array size of 'a' is missing"},
    {HDR ".global .u32 a[][0] = {1};\n", 4, 24, "too many initializers for 'a'"},
    {HDR ".global .u32 a[0] = {1};\n", 4, 22, "too many initializers for 'a'"},
    {HDR ".global .u32 a[2][];\n", 4, 18, "only the first array dimension may be omitted"},
    {HDR ".global .align 3 .u32 a;\n", 4, 16, "alignment must be a power of two"},
    {HDR ".global .v8 .u32 a;\n", 4, 9, "bad vector width '.v8'"},
    {HDR ".global .pred a;\n", 4, 9, "predicate variables are not supported"},
    {HDR ".global a;\n", 4, 9, "expected a type, found 'a'"},
    {HDR ".global .u32 .f32 a;\n", 4, 14, "more than one type"},
    {HDR ".global .u32 a[100] = {1, {2, {3, {4, {5, {6, {7, {8, {9}}}}}}}}};\n", 4, 55,
     "initializer nested too deeply"},
    {HDR ".local .u32 x;\n", 4, 1, "module-scope .local variables are not supported"},
    {HDR ".param .u32 x;\n", 4, 1, ".param variables must be declared in a function"},
    {K(".global .u32 g;"), 9, 1, "'.global' variables must be declared at module scope"},
    {K(".reg .b128 %q;"), 9, 12, "128-bit registers are not supported"},
    {K(".reg .v2 .b32 %q;"), 9, 6, "vector registers are not supported"},
    {K(".reg %q;"), 9, 6, "expected a register type"},
    {K(".reg .b32 %x<70000>;"), 9, 14, "a register count out of range"},
    {K(".reg .b32 %a<65536>, %b<65536>, %c<65536>, %d<65536>, %e<65536>, %f<65536>,\n"
       "%g<65536>, %h<65536>, %i<65536>, %j<65536>, %k<65536>, %l<65536>, %m<65536>,\n"
       "%n<65536>, %o<65536>, %q<65536>;"),
     11, 23, "too many registers"},
    {K(".shared .u64 .ptr p;"), 9, 14, ".ptr is only allowed on parameters"},
    {HDR ".pol \"\";\n", 4, 6, "empty scheduler policy name"},
    {HDR ".pragma \"warpsim.policy a b\";\n", 4, 9, "malformed scheduler policy name"},
    {HDR ".pol LRR;\n", 4, 6, "expected a policy name string"},
    {HDR ".entry k()\n{\nret;\n}\n.pragma \"warpsim.regs j 8\";\n", 8, 9,
     "pragma warpsim.regs: no function 'j' in this module"},
    {HDR ".pragma \"warpsim.regs k 8\";\n.entry k()\n{\nret;\n}\n.pragma \"warpsim.regs k 9\";\n",
     9, 9, "pragma warpsim.regs: 'k' already has 8 registers"},
    {HDR ".pragma \"warpsim.regs k\";\n", 4, 9, "pragma warpsim.regs: expected"},
    {HDR ".pragma \"warpsim.regs k 0\";\n", 4, 9, "pragma warpsim.regs: expected"},
    {HDR ".pragma \"warpsim.regs k 12x\";\n", 4, 9, "pragma warpsim.regs: expected"},
    {HDR ".pragma \"warpsim.regs k 70000\";\n", 4, 9, "pragma warpsim.regs: expected"},
    {HDR ".loc 1 2 3, frob 4\n", 4, 13, "unknown .loc attribute 'frob'"},
    {K("{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"), 9, 64,
     "blocks nested too deeply"},
};

static void test_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++)
        expect_err(err_cases[i].src, err_cases[i].line, err_cases[i].col, err_cases[i].frag);
}

/* ---- robustness --------------------------------------------------------------------------- */
/* Every prefix of a real file, in an exact-size buffer: never reads past len, never leaks
 * (under ASan), always either parses or explains why not. */
static void test_prefixes(void **state)
{
    (void)state;
    size_t n;
    char *text = read_file("tests/ptx/parse_calls.ptx", &n);
    assert_non_null(text);
    unsigned ok = 0;
    for (size_t len = 0; len <= n; len += len < 2000 ? 1 : 13) {
        char *buf = malloc(len ? len : 1);
        memcpy(buf, text, len);
        ptx_diag d;
        ptx_module *m = ptx_parse(buf, len, "p.ptx", &d);
        if (m) {
            ok++;
            ptx_module_free(m);
        } else {
            assert_true(d.msg[0] != 0);
            assert_true(d.line >= 1);
        }
        free(buf);
    }
    assert_true(ok >= 2); /* the empty text and the whole file */
    /* a NULL diagnostic pointer is allowed */
    assert_null(ptx_parse("frob", 4, NULL, NULL));
    free(text);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOW_BUILD 1
#endif
#endif
#if !defined(SLOW_BUILD) && !defined(__OPTIMIZE__)
#define SLOW_BUILD 1
#endif

/* 200 KB+ of PTX must parse in well under 50 ms in an optimised build. */
static void test_speed(void **state)
{
    (void)state;
    size_t cap = 400000, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src, cap, HDR ".global .align 1 .b8 tab[20000] = {");
    for (int i = 0; i < 20000; i++)
        len += (size_t)snprintf(src + len, cap - len, "%d, ", i & 255);
    len -= 2;
    len += (size_t)snprintf(src + len, cap - len, "};\n");
    for (int k = 0; len < 250000; k++) {
        len += (size_t)snprintf(src + len, cap - len,
            ".visible .entry k%d(.param .u64 p%d, .param .u32 n%d)\n{\n"
            ".reg .pred %%p<4>;\n.reg .b32 %%r<40>;\n.reg .f32 %%f<20>;\n.reg .b64 %%rd<20>;\n"
            "ld.param.u64 %%rd1, [p%d];\nld.param.u32 %%r1, [n%d];\n"
            "mov.u32 %%r2, %%tid.x;\nmov.u32 %%r3, %%ctaid.x;\nmov.u32 %%r4, %%ntid.x;\n"
            "mad.lo.s32 %%r5, %%r3, %%r4, %%r2;\nsetp.ge.s32 %%p1, %%r5, %%r1;\n"
            "@%%p1 bra $L__BB%d_3;\ncvta.to.global.u64 %%rd2, %%rd1;\n"
            "mul.wide.s32 %%rd3, %%r5, 4;\nadd.s64 %%rd4, %%rd2, %%rd3;\n"
            "$L__BB%d_2:\nld.global.f32 %%f1, [%%rd4];\nfma.rn.f32 %%f2, %%f1, 0f3F800000, %%f1;\n"
            "mul.f32 %%f3, %%f2, %%f2;\nst.global.f32 [%%rd4+4], %%f3;\n"
            "add.s32 %%r5, %%r5, %%r4;\nsetp.lt.s32 %%p2, %%r5, %%r1;\n"
            "@%%p2 bra.uni $L__BB%d_2;\nshfl.sync.down.b32 %%r6|%%p3, %%r5, 1, 31, -1;\n"
            "atom.global.add.u32 %%r7, [%%rd4], %%r6;\nbar.sync 0;\n"
            "$L__BB%d_3:\nret;\n}\n",
            k, k, k, k, k, k, k, k, k);
    }
    ptx_diag d;
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ms();
        ptx_module *m = ptx_parse(src, len, "speed.ptx", &d);
        double t = now_ms() - t0;
        if (!m)
            fail_msg("%u:%u: %s", d.line, d.col, d.msg);
        assert_true(m->n_funcs > 100);
        ptx_module_free(m);
        if (t < best)
            best = t;
    }
#ifdef SLOW_BUILD
    assert_true(best < 1000.0);
#else
    if (best >= 50.0)
        fail_msg("parsing %zu bytes took %.1f ms", len, best);
#endif
    free(src);
}

static void test_format_truncation(void **state)
{
    (void)state;
    const ptx_insn *in;
    ptx_module *m = one("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", &in);
    char buf[16];
    int len = ptx_insn_format(m, &m->funcs[0], in, buf, sizeof buf);
    assert_int_equal(len, (int)strlen("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];"));
    assert_int_equal(strlen(buf), 15);
    assert_memory_equal(buf, "ld.global.nc.v4", 15);
    assert_int_equal(ptx_insn_format(m, &m->funcs[0], in, NULL, 0), len);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc_roundtrip),
        cmocka_unit_test(test_bench_ptx),
        cmocka_unit_test(test_nvcc_calls),
        cmocka_unit_test(test_nvcc_warp),
        cmocka_unit_test(test_nvcc_debug),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_setp_shfl_slots),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_scopes),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_directives),
        cmocka_unit_test(test_prototypes),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_prefixes),
        cmocka_unit_test(test_speed),
        cmocka_unit_test(test_format_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
