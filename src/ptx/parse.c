/* parse.c - PTX text to the IR of ir.h.
 *
 * One pass over the tokens: module directives, declarations and instructions are
 * decoded as they are read; label references are patched at the end of each
 * function; symbols are laid out and CFGs built once the whole module is read.
 * Errors unwind with longjmp to ptx_parse, which frees everything: every
 * allocation hangs off the parser or the module being built, so no path leaks.
 *
 * Names: every identifier is interned once (hash table over the module string
 * table). A name carries its innermost binding (register or symbol; bindings form
 * a stack with one mark per `{ }` scope, so inner blocks shadow and pop cleanly),
 * the function of that name, and the label it denotes in the function being
 * parsed (stamped with a per-function generation so no reset is needed).
 *
 * Conventions beyond ir.h (the formatter in ir.c follows them too):
 *  - min/max `.NaN`: sub = 1.  prefetch/prefetchu level: sub = 1 (.L1) or 2 (.L2).
 *  - OK_VEC pool entries are register slots; UINT32_MAX stands for the sink `_`.
 *  - Indirect call: ops[1] is an OK_REG holding the target address; `mov` of a
 *    function name gives an OK_FUNC source operand.
 *  - A function whose body can fall off its end, or whose labels point past its
 *    last instruction, gets an implicit `ret` appended (position of the '}').
 */
#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "ptx/lex.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define MAX_DEPTH 64              /* nested { } blocks                          */
#define MAX_REGS_PER_DECL 65536u  /* %r<N>                                      */
#define MAX_REGS (1u << 20)       /* register slots per function                */
#define MAX_MODULE_REGS (1u << 22)/* and per module (bounds memory on bad input)  */
#define MAX_INIT_BYTES (256u << 20)
#define MAX_VAR_BYTES (1ull << 40)
#define MAX_RAW 8                 /* operands of one instruction as written     */
#define MAX_MODS 16               /* dotted modifiers of one instruction        */
#define MAX_VEC 8                 /* registers in a { } vector operand          */

/* ---- keyword tables ---------------------------------------------------------------- */
enum {
    D_NONE, D_ADDRESS_SIZE, D_ALIGN, D_ATTRIBUTE, D_BRANCHTARGETS, D_CALLPROTOTYPE,
    D_CALLTARGETS, D_COMMON, D_ENTRY, D_EXPLICITCLUSTER, D_EXTERN, D_FILE, D_FUNC, D_LOC,
    D_MAXCLUSTERRANK, D_MAXNCTAPERSM, D_MAXNREG, D_MAXNTID, D_MINNCTAPERSM, D_NORETURN,
    D_POL, D_PRAGMA, D_PTR, D_REG, D_REQNCTAPERCLUSTER, D_REQNTID, D_SECTION, D_TARGET,
    D_VERSION, D_VISIBLE, D_WEAK,
};

/* Modifier classes of dotted words inside instructions. */
enum { KC_NONE, KC_TYPE, KC_SPACE, KC_CMP, KC_RND, KC_FLAG, KC_COP, KC_SEM, KC_SCOPE,
       KC_VEC, KC_WORD, KC_HINT };

typedef struct {
    const char *name;   /* without the dot */
    uint8_t dir;        /* D_* when usable as a directive */
    uint8_t cls;        /* KC_* when usable as an instruction modifier */
    uint32_t val;
} kw_entry;

typedef struct {
    const char *name;
    uint16_t op;
} op_entry;

/* Sorted by strcmp (binary search); regenerate rather than edit by hand. */
enum {
    W_LO, W_HI, W_WIDE, W_AND, W_OR, W_XOR, W_ADD, W_MIN, W_MAX, W_INC, W_DEC, W_CAS,
    W_EXCH, W_ANY, W_ALL, W_UNI, W_BALLOT, W_UP, W_DOWN, W_BFLY, W_IDX, W_SYNC,
    W_ARRIVE, W_RED, W_WARP, W_POPC, W_FINITE, W_INFINITE, W_NUMBER, W_NOTANUMBER,
    W_NORMAL, W_SUBNORMAL, W_L, W_R, W_F4E, W_B4E, W_RC8, W_ECL, W_ECR, W_RC16, W_GL,
    W_L1, W_L2, W_NAN, W_MASK,
};
static const kw_entry kw_table[] = {
    {"L1", 0, KC_WORD, W_L1}, {"L1::evict_first", 0, KC_HINT, W_L1},
    {"L1::evict_last", 0, KC_HINT, W_L1}, {"L1::evict_normal", 0, KC_HINT, W_L1},
    {"L1::evict_unchanged", 0, KC_HINT, W_L1}, {"L1::no_allocate", 0, KC_HINT, W_L1},
    {"L2", 0, KC_WORD, W_L2}, {"L2::128B", 0, KC_HINT, W_L2}, {"L2::256B", 0, KC_HINT, W_L2},
    {"L2::64B", 0, KC_HINT, W_L2}, {"L2::evict_first", 0, KC_HINT, W_L2},
    {"L2::evict_last", 0, KC_HINT, W_L2}, {"L2::evict_normal", 0, KC_HINT, W_L2},
    {"NaN", 0, KC_WORD, W_NAN}, {"acq_rel", 0, KC_SEM, SEM_ACQ_REL},
    {"acquire", 0, KC_SEM, SEM_ACQUIRE}, {"add", 0, KC_WORD, W_ADD},
    {"address_size", D_ADDRESS_SIZE, 0, 0}, {"align", D_ALIGN, 0, 0},
    {"aligned", 0, KC_FLAG, MF_ALIGNED}, {"all", 0, KC_WORD, W_ALL},
    {"and", 0, KC_WORD, W_AND}, {"any", 0, KC_WORD, W_ANY}, {"approx", 0, KC_FLAG, MF_APPROX},
    {"arrive", 0, KC_WORD, W_ARRIVE}, {"attribute", D_ATTRIBUTE, 0, 0},
    {"b128", 0, KC_TYPE, PT_B128}, {"b16", 0, KC_TYPE, PT_B16}, {"b32", 0, KC_TYPE, PT_B32},
    {"b4e", 0, KC_WORD, W_B4E}, {"b64", 0, KC_TYPE, PT_B64}, {"b8", 0, KC_TYPE, PT_B8},
    {"ballot", 0, KC_WORD, W_BALLOT}, {"bf16", 0, KC_TYPE, PT_BF16},
    {"bf16x2", 0, KC_TYPE, PT_BF16X2}, {"bfly", 0, KC_WORD, W_BFLY},
    {"branchtargets", D_BRANCHTARGETS, 0, 0}, {"ca", 0, KC_COP, CO_CA},
    {"callprototype", D_CALLPROTOTYPE, 0, 0}, {"calltargets", D_CALLTARGETS, 0, 0},
    {"cas", 0, KC_WORD, W_CAS}, {"cc", 0, KC_FLAG, MF_CC}, {"cg", 0, KC_COP, CO_CG},
    {"clamp", 0, KC_FLAG, MF_CLAMP}, {"cluster", 0, KC_SCOPE, SCOPE_CLUSTER},
    {"common", D_COMMON, 0, 0}, {"const", 0, KC_SPACE, SP_CONST}, {"cs", 0, KC_COP, CO_CS},
    {"cta", 0, KC_SCOPE, SCOPE_CTA}, {"cv", 0, KC_COP, CO_CV}, {"dec", 0, KC_WORD, W_DEC},
    {"down", 0, KC_WORD, W_DOWN}, {"ecl", 0, KC_WORD, W_ECL}, {"ecr", 0, KC_WORD, W_ECR},
    {"entry", D_ENTRY, 0, 0}, {"eq", 0, KC_CMP, CMP_EQ}, {"equ", 0, KC_CMP, CMP_EQU},
    {"exch", 0, KC_WORD, W_EXCH}, {"explicitcluster", D_EXPLICITCLUSTER, 0, 0},
    {"extern", D_EXTERN, 0, 0}, {"f16", 0, KC_TYPE, PT_F16}, {"f16x2", 0, KC_TYPE, PT_F16X2},
    {"f32", 0, KC_TYPE, PT_F32}, {"f4e", 0, KC_WORD, W_F4E}, {"f64", 0, KC_TYPE, PT_F64},
    {"file", D_FILE, 0, 0}, {"finite", 0, KC_WORD, W_FINITE}, {"ftz", 0, KC_FLAG, MF_FTZ},
    {"full", 0, KC_FLAG, MF_FULL}, {"func", D_FUNC, 0, 0}, {"ge", 0, KC_CMP, CMP_GE},
    {"geu", 0, KC_CMP, CMP_GEU}, {"gl", 0, KC_WORD, W_GL}, {"global", 0, KC_SPACE, SP_GLOBAL},
    {"gpu", 0, KC_SCOPE, SCOPE_GPU}, {"gt", 0, KC_CMP, CMP_GT}, {"gtu", 0, KC_CMP, CMP_GTU},
    {"hi", 0, KC_WORD, W_HI}, {"hs", 0, KC_CMP, CMP_HS}, {"idx", 0, KC_WORD, W_IDX},
    {"inc", 0, KC_WORD, W_INC}, {"infinite", 0, KC_WORD, W_INFINITE}, {"l", 0, KC_WORD, W_L},
    {"le", 0, KC_CMP, CMP_LE}, {"leu", 0, KC_CMP, CMP_LEU}, {"lo", 0, KC_WORD, W_LO},
    {"loc", D_LOC, 0, 0}, {"local", 0, KC_SPACE, SP_LOCAL}, {"ls", 0, KC_CMP, CMP_LS},
    {"lt", 0, KC_CMP, CMP_LT}, {"ltu", 0, KC_CMP, CMP_LTU}, {"lu", 0, KC_COP, CO_LU},
    {"mask", 0, KC_WORD, W_MASK}, {"max", 0, KC_WORD, W_MAX},
    {"maxclusterrank", D_MAXCLUSTERRANK, 0, 0}, {"maxnctapersm", D_MAXNCTAPERSM, 0, 0},
    {"maxnreg", D_MAXNREG, 0, 0}, {"maxntid", D_MAXNTID, 0, 0}, {"min", 0, KC_WORD, W_MIN},
    {"minnctapersm", D_MINNCTAPERSM, 0, 0}, {"nan", 0, KC_CMP, CMP_NAN},
    {"nc", 0, KC_FLAG, MF_NC}, {"ne", 0, KC_CMP, CMP_NE}, {"neu", 0, KC_CMP, CMP_NEU},
    {"noftz", 0, KC_FLAG, MF_NOINC}, {"noreturn", D_NORETURN, 0, 0},
    {"normal", 0, KC_WORD, W_NORMAL}, {"notanumber", 0, KC_WORD, W_NOTANUMBER},
    {"num", 0, KC_CMP, CMP_NUM}, {"number", 0, KC_WORD, W_NUMBER}, {"or", 0, KC_WORD, W_OR},
    {"param", 0, KC_SPACE, SP_PARAM}, {"param::entry", 0, KC_SPACE, SP_PARAM},
    {"param::func", 0, KC_SPACE, SP_PARAM}, {"pol", D_POL, 0, 0},
    {"popc", 0, KC_WORD, W_POPC}, {"pragma", D_PRAGMA, 0, 0}, {"pred", 0, KC_TYPE, PT_PRED},
    {"ptr", D_PTR, 0, 0}, {"r", 0, KC_WORD, W_R}, {"rc16", 0, KC_WORD, W_RC16},
    {"rc8", 0, KC_WORD, W_RC8}, {"red", 0, KC_WORD, W_RED}, {"reg", D_REG, 0, 0},
    {"relaxed", 0, KC_SEM, SEM_RELAXED}, {"release", 0, KC_SEM, SEM_RELEASE},
    {"relu", 0, KC_FLAG, MF_RELU}, {"reqnctapercluster", D_REQNCTAPERCLUSTER, 0, 0},
    {"reqntid", D_REQNTID, 0, 0}, {"rm", 0, KC_RND, RND_RM}, {"rmi", 0, KC_RND, RND_RMI},
    {"rn", 0, KC_RND, RND_RN}, {"rna", 0, KC_RND, RND_RNA}, {"rni", 0, KC_RND, RND_RNI},
    {"rp", 0, KC_RND, RND_RP}, {"rpi", 0, KC_RND, RND_RPI}, {"rz", 0, KC_RND, RND_RZ},
    {"rzi", 0, KC_RND, RND_RZI}, {"s16", 0, KC_TYPE, PT_S16}, {"s32", 0, KC_TYPE, PT_S32},
    {"s64", 0, KC_TYPE, PT_S64}, {"s8", 0, KC_TYPE, PT_S8}, {"sat", 0, KC_FLAG, MF_SAT},
    {"sc", 0, KC_SEM, SEM_SC}, {"section", D_SECTION, 0, 0},
    {"shared", 0, KC_SPACE, SP_SHARED}, {"shared::cta", 0, KC_SPACE, SP_SHARED},
    {"shiftamt", 0, KC_FLAG, MF_SHIFTAMT}, {"subnormal", 0, KC_WORD, W_SUBNORMAL},
    {"sync", 0, KC_WORD, W_SYNC}, {"sys", 0, KC_SCOPE, SCOPE_SYS}, {"target", D_TARGET, 0, 0},
    {"to", 0, KC_FLAG, MF_TO}, {"u16", 0, KC_TYPE, PT_U16}, {"u32", 0, KC_TYPE, PT_U32},
    {"u64", 0, KC_TYPE, PT_U64}, {"u8", 0, KC_TYPE, PT_U8}, {"uni", 0, KC_WORD, W_UNI},
    {"up", 0, KC_WORD, W_UP}, {"v16", 0, KC_VEC, 16}, {"v2", 0, KC_VEC, 2},
    {"v4", 0, KC_VEC, 4}, {"v8", 0, KC_VEC, 8}, {"version", D_VERSION, 0, 0},
    {"visible", D_VISIBLE, 0, 0}, {"volatile", 0, KC_SEM, SEM_VOLATILE},
    {"warp", 0, KC_WORD, W_WARP}, {"wb", 0, KC_COP, CO_WB},
    {"weak", D_WEAK, KC_SEM, SEM_WEAK}, {"wide", 0, KC_WORD, W_WIDE},
    {"wrap", 0, KC_FLAG, MF_WRAP}, {"wt", 0, KC_COP, CO_WT}, {"xor", 0, KC_WORD, W_XOR},
};
static const op_entry op_table[] = {
    {"abs", OP_ABS}, {"activemask", OP_ACTIVEMASK}, {"add", OP_ADD}, {"addc", OP_ADDC},
    {"and", OP_AND}, {"atom", OP_ATOM}, {"bar", OP_BAR}, {"barrier", OP_BARRIER},
    {"bfe", OP_BFE}, {"bfi", OP_BFI}, {"bfind", OP_BFIND}, {"bra", OP_BRA}, {"brev", OP_BREV},
    {"brkpt", OP_BRKPT}, {"brx", OP_BRX}, {"call", OP_CALL}, {"clz", OP_CLZ},
    {"cnot", OP_CNOT}, {"copysign", OP_COPYSIGN}, {"cos", OP_COS}, {"cvt", OP_CVT},
    {"cvta", OP_CVTA}, {"div", OP_DIV}, {"dp2a", OP_DP2A}, {"dp4a", OP_DP4A}, {"ex2", OP_EX2},
    {"exit", OP_EXIT}, {"fence", OP_FENCE}, {"fma", OP_FMA}, {"fns", OP_FNS},
    {"isspacep", OP_ISSPACEP}, {"ld", OP_LD}, {"ldu", OP_LDU}, {"lg2", OP_LG2},
    {"lop3", OP_LOP3}, {"mad", OP_MAD}, {"mad24", OP_MAD24}, {"madc", OP_MADC},
    {"match", OP_MATCH}, {"max", OP_MAX}, {"membar", OP_MEMBAR}, {"min", OP_MIN},
    {"mov", OP_MOV}, {"mul", OP_MUL}, {"mul24", OP_MUL24}, {"nanosleep", OP_NANOSLEEP},
    {"neg", OP_NEG}, {"nop", OP_NOP}, {"not", OP_NOT}, {"or", OP_OR}, {"pmevent", OP_PMEVENT},
    {"popc", OP_POPC}, {"prefetch", OP_PREFETCH}, {"prefetchu", OP_PREFETCHU},
    {"prmt", OP_PRMT}, {"rcp", OP_RCP}, {"red", OP_RED}, {"redux", OP_REDUX}, {"rem", OP_REM},
    {"ret", OP_RET}, {"rsqrt", OP_RSQRT}, {"sad", OP_SAD}, {"selp", OP_SELP}, {"set", OP_SET},
    {"setp", OP_SETP}, {"shf", OP_SHF}, {"shfl", OP_SHFL}, {"shl", OP_SHL}, {"shr", OP_SHR},
    {"sin", OP_SIN}, {"slct", OP_SLCT}, {"sqrt", OP_SQRT}, {"st", OP_ST}, {"sub", OP_SUB},
    {"subc", OP_SUBC}, {"tanh", OP_TANH}, {"testp", OP_TESTP}, {"trap", OP_TRAP},
    {"vote", OP_VOTE}, {"xor", OP_XOR},
};

static int name_cmp(const char *s, size_t n, const char *name)
{
    size_t i = 0;
    for (; i < n && name[i]; i++)
        if (s[i] != name[i])
            return (unsigned char)s[i] - (unsigned char)name[i];
    if (i < n)
        return 1;
    return name[i] ? -1 : 0;
}

static const kw_entry *kw_find(const char *s, size_t n)
{
    size_t lo = 0, hi = sizeof kw_table / sizeof kw_table[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = name_cmp(s, n, kw_table[mid].name);
        if (!c)
            return &kw_table[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static int op_find(const char *s, size_t n)
{
    size_t lo = 0, hi = sizeof op_table / sizeof op_table[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = name_cmp(s, n, op_table[mid].name);
        if (!c)
            return op_table[mid].op;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* ---- parser state ---------------------------------------------------------------------- */
typedef struct {
    uint32_t str, len, hash;
    uint32_t top;             /* innermost binding, or NIL                      */
    int32_t func;             /* function with this name, or -1                 */
    uint32_t label_gen, label;/* label in function generation label_gen        */
    uint32_t proto_gen;       /* call prototype / target list in that function  */
} pname;

enum { BK_REG, BK_SYM };
typedef struct {
    uint32_t name, prev, idx;
    uint32_t depth;
    uint8_t kind;
} pbind;

typedef struct {
    uint32_t insn, name;
    uint8_t op;
    uint32_t line, col;
} pfix;

/* A `.pragma "warpsim.regs NAME N";` waiting for its function to be known. */
typedef struct {
    char *name;
    uint32_t regs, line, col;
} pregs;

typedef struct {
    lexer lx;
    lex_tok t;
    ptx_diag *d;
    jmp_buf jb;
    ptx_module *m;
    size_t funcs_cap, syms_cap;

    pname *names;
    size_t n_names, names_cap;
    uint32_t *htab;           /* name id + 1, 0 = empty; size hcap (power of 2)  */
    uint32_t hcap;
    pbind *binds;
    size_t n_binds, binds_cap;
    uint32_t depth;           /* 0 module, 1 function, 2.. nested blocks        */
    size_t marks[MAX_DEPTH + 2];

    int32_t fi;               /* function being parsed, or -1                   */
    uint32_t gen;             /* its generation stamp                            */
    size_t regs_cap, insns_cap;
    size_t module_regs;       /* register slots declared so far, all functions */
    pfix *fix;
    size_t n_fix, fix_cap;
    pregs *regs;              /* "warpsim.regs" pragmas, resolved after the module */
    size_t n_regs, regs_cap_p;

    char scratch[LEX_MAX_NAME + 64];
} parser;

#define CURF(P) (&(P)->m->funcs[(P)->fi])

static _Noreturn void fail_at(parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static _Noreturn void fail_at(parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->d->msg, sizeof P->d->msg, fmt, ap);
    va_end(ap);
    P->d->line = line;
    P->d->col = col;
    longjmp(P->jb, 1);
}

#define FAIL(P, ...) fail_at((P), (P)->t.line, (P)->t.col, __VA_ARGS__)

static _Noreturn void fail_oom(parser *P) { FAIL(P, "out of memory"); }

static void *grow(parser *P, void *p, size_t *cap, size_t need, size_t elsz)
{
    if (need <= *cap)
        return p;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            fail_oom(P);
        nc *= 2;
    }
    if (nc > SIZE_MAX / elsz)
        fail_oom(P);
    void *q = realloc(p, nc * elsz);
    if (!q)
        fail_oom(P);
    *cap = nc;
    return q;
}
#define GROW(P, arr, cap, need) ((arr) = grow((P), (arr), &(cap), (need), sizeof *(arr)))

static char *xstrndup(parser *P, const char *s, size_t n)
{
    char *r = malloc(n + 1);
    if (!r)
        fail_oom(P);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

/* ---- tokens ---------------------------------------------------------------------------- */
static void next(parser *P)
{
    if (lex_next(&P->lx, &P->t, P->d))
        longjmp(P->jb, 1);
}

static const char *tok_s(const parser *P, const lex_tok *t) { return P->lx.s + t->off; }

/* Quoted description of the current token for "expected X, found Y". */
static const char *tok_desc(parser *P, char *buf, size_t n)
{
    if (P->t.kind == TK_EOF)
        return "end of file";
    int len = P->t.len > 40 ? 40 : (int)P->t.len;
    snprintf(buf, n, "'%.*s%s'", len, tok_s(P, &P->t), P->t.len > 40 ? "..." : "");
    return buf;
}

static _Noreturn void fail_expected(parser *P, const char *what)
{
    char buf[64];
    FAIL(P, "expected %s, found %s", what, tok_desc(P, buf, sizeof buf));
}

static void expect(parser *P, int kind, const char *what)
{
    if (P->t.kind != kind)
        fail_expected(P, what);
    next(P);
}

static int tok_is(const parser *P, const char *s)
{
    return !name_cmp(tok_s(P, &P->t), P->t.len, s);
}

static uint64_t expect_uint(parser *P, const char *what, uint64_t max)
{
    if (P->t.kind != TK_INT)
        fail_expected(P, what);
    if (P->t.u > max)
        FAIL(P, "%s out of range", what);
    uint64_t v = P->t.u;
    next(P);
    return v;
}

static const kw_entry *dot_kw(const parser *P)
{
    return P->t.kind == TK_DOT ? kw_find(tok_s(P, &P->t) + 1, P->t.len - 1) : NULL;
}

/* String token contents without quotes, escapes resolved, into scratch. */
static const char *str_value(parser *P)
{
    const char *s = tok_s(P, &P->t) + 1;
    size_t n = P->t.len - 2, o = 0;
    for (size_t i = 0; i < n && o + 1 < sizeof P->scratch; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < n) {
            c = s[++i];
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
        }
        P->scratch[o++] = c;
    }
    P->scratch[o] = 0;
    return P->scratch;
}

/* ---- names and scopes ------------------------------------------------------------------ */
static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static uint32_t str_add(parser *P, const char *s, size_t n)
{
    ptx_module *m = P->m;
    if (m->strtab_len + n + 1 > UINT32_MAX)
        fail_oom(P);
    GROW(P, m->strtab, m->strtab_cap, m->strtab_len + n + 1);
    uint32_t off = (uint32_t)m->strtab_len;
    memcpy(m->strtab + off, s, n);
    m->strtab[off + n] = 0;
    m->strtab_len += n + 1;
    return off;
}

static uint32_t name_find_h(const parser *P, const char *s, size_t n, uint32_t h)
{
    uint32_t mask = P->hcap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t e = P->htab[i];
        if (!e)
            return NIL;
        const pname *nm = &P->names[e - 1];
        if (nm->hash == h && nm->len == n && !memcmp(P->m->strtab + nm->str, s, n))
            return e - 1;
    }
}

static uint32_t name_find(const parser *P, const char *s, size_t n)
{
    return name_find_h(P, s, n, hash_bytes(s, n));
}

static uint32_t name_intern(parser *P, const char *s, size_t n)
{
    uint32_t h = hash_bytes(s, n);
    uint32_t id = name_find_h(P, s, n, h);
    if (id != NIL)
        return id;
    if ((P->n_names + 1) * 2 > P->hcap) {
        if (P->hcap > UINT32_MAX / 4)
            fail_oom(P);
        uint32_t nc = P->hcap * 2;
        uint32_t *nt = calloc(nc, sizeof *nt);
        if (!nt)
            fail_oom(P);
        for (size_t i = 0; i < P->n_names; i++) {
            uint32_t j = P->names[i].hash & (nc - 1);
            while (nt[j])
                j = (j + 1) & (nc - 1);
            nt[j] = (uint32_t)i + 1;
        }
        free(P->htab);
        P->htab = nt;
        P->hcap = nc;
    }
    GROW(P, P->names, P->names_cap, P->n_names + 1);
    id = (uint32_t)P->n_names++;
    pname *nm = &P->names[id];
    nm->str = str_add(P, s, n);
    nm->len = (uint32_t)n;
    nm->hash = h;
    nm->top = NIL;
    nm->func = -1;
    nm->label_gen = 0;
    nm->label = 0;
    nm->proto_gen = 0;
    uint32_t j = h & (P->hcap - 1);
    while (P->htab[j])
        j = (j + 1) & (P->hcap - 1);
    P->htab[j] = id + 1;
    return id;
}

static uint32_t tok_intern(parser *P, const lex_tok *t) { return name_intern(P, tok_s(P, t), t->len); }

static const char *name_str(const parser *P, uint32_t id) { return P->m->strtab + P->names[id].str; }

static void bind(parser *P, uint32_t name, int kind, uint32_t idx, uint32_t line, uint32_t col)
{
    pname *nm = &P->names[name];
    if (nm->top != NIL && P->binds[nm->top].depth == P->depth)
        fail_at(P, line, col, "duplicate definition of '%s'", name_str(P, name));
    GROW(P, P->binds, P->binds_cap, P->n_binds + 1);
    pbind *b = &P->binds[P->n_binds];
    b->name = name;
    b->prev = nm->top;
    b->idx = idx;
    b->depth = P->depth;
    b->kind = (uint8_t)kind;
    nm->top = (uint32_t)P->n_binds++;
}

static void unbind_to(parser *P, size_t mark)
{
    while (P->n_binds > mark) {
        const pbind *b = &P->binds[--P->n_binds];
        P->names[b->name].top = b->prev;
    }
}

/* Binding of a name as currently visible, or NULL. */
static const pbind *lookup(const parser *P, const char *s, size_t n)
{
    uint32_t id = name_find(P, s, n);
    if (id == NIL || P->names[id].top == NIL)
        return NULL;
    return &P->binds[P->names[id].top];
}

/* ---- constants ------------------------------------------------------------------------- */
static int type_is_f(int t) { return t >= PT_F16 && t <= PT_F64; }
static int type_is_s(int t) { return t >= PT_S8 && t <= PT_S64; }
static int type_is_b(int t) { return t >= PT_B8 && t <= PT_B128; }
static unsigned tsize(int t) { return ptx_type_size[t]; }

/* Rounds x (finite or not) to a binary format with `eb` exponent and `mb` mantissa
 * bits, round-to-nearest-even, and returns its bits (f16: 5/10, bf16: 8/7). */
static uint32_t f64_to_small(double x, int eb, int mb)
{
    uint32_t sign = signbit(x) ? 1u << (eb + mb) : 0;
    uint32_t emax_field = (1u << eb) - 1;
    if (isnan(x))
        return sign | emax_field << mb | 1u << (mb - 1);
    double a = fabs(x);
    if (isinf(a))
        return sign | emax_field << mb;
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    e -= 1; /* a = m * 2^e with 1 <= m < 2 */
    if (e < emin) {
        double q = rint(ldexp(a, mb - emin)); /* units of the smallest subnormal */
        return sign | (uint32_t)q;            /* q == 2^mb rolls into the first normal */
    }
    double q = rint(ldexp(a, mb - e));
    if (q >= ldexp(1.0, mb + 1)) {
        q /= 2;
        e++;
    }
    if (e > bias)
        return sign | emax_field << mb;
    return sign | (uint32_t)(e + bias) << mb | ((uint32_t)q & ((1u << mb) - 1));
}

static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint64_t u) { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }

/* A constant as written: integer, decimal float, or raw 0f / 0d bits. */
typedef struct {
    uint8_t lit;      /* TK_INT, TK_FLT, TK_F32, TK_F64 */
    uint8_t neg;      /* written with a leading '-' */
    uint64_t u;       /* TK_INT value (negated already), raw bits */
    double f;         /* TK_FLT value (negated already) */
} pconst;

/* Reads [-] number at the current token. */
static int read_const(parser *P, pconst *c)
{
    memset(c, 0, sizeof *c);
    if (P->t.kind == TK_MINUS) {
        next(P);
        c->neg = 1;
    }
    switch (P->t.kind) {
    case TK_INT: c->u = c->neg ? 0 - P->t.u : P->t.u; break;
    case TK_FLT: c->f = c->neg ? -P->t.f : P->t.f; break;
    case TK_F32: c->u = c->neg ? P->t.u ^ 0x80000000u : P->t.u; break;
    case TK_F64: c->u = c->neg ? P->t.u ^ 0x8000000000000000ull : P->t.u; break;
    default:
        if (c->neg)
            fail_expected(P, "a number");
        return 0;
    }
    c->lit = P->t.kind;
    next(P);
    return 1;
}

/* Value of a constant in the register encoding of type t (see ir.h). NULL on success,
 * else the reason it does not fit. */
static const char *const_bits(const pconst *c, int t, uint64_t *out)
{
    if (type_is_f(t) && t != PT_F16X2 && t != PT_BF16X2) {
        double v;
        switch (c->lit) {
        case TK_INT: v = c->neg ? (double)(int64_t)c->u : (double)c->u; break;
        case TK_FLT: v = c->f; break;
        case TK_F32:
            if (t == PT_F32) {
                *out = c->u & 0xffffffffu;
                return NULL;
            }
            v = bits_f32(c->u);
            break;
        default:
            if (t == PT_F64) {
                *out = c->u;
                return NULL;
            }
            v = bits_f64(c->u);
            break;
        }
        if (t == PT_F64)
            *out = f64_bits(v);
        else if (t == PT_F32)
            *out = f32_bits((float)v);
        else if (t == PT_F16)
            *out = f64_to_small(v, 5, 10);
        else
            *out = f64_to_small(v, 8, 7);
        return NULL;
    }
    if (c->lit == TK_FLT)
        return "a decimal floating-point constant needs a floating-point operand";
    if (t == PT_PRED) {
        if (c->lit != TK_INT)
            return "a predicate constant must be 0 or 1";
        *out = c->u != 0;
        return NULL;
    }
    *out = c->u;
    return NULL;
}

/* ---- simple directives ----------------------------------------------------------------- */
static void parse_version(parser *P)
{
    next(P);
    if (P->t.kind != TK_FLT && P->t.kind != TK_INT)
        fail_expected(P, "a version number");
    const char *s = tok_s(P, &P->t);
    uint32_t maj = 0, min = 0, i = 0, n = P->t.len;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && maj < 100000; i++)
        maj = maj * 10 + (uint32_t)(s[i] - '0');
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9' && min < 100000; i++)
            min = min * 10 + (uint32_t)(s[i] - '0');
    if (i != n)
        FAIL(P, "malformed .version");
    P->m->version_major = maj;
    P->m->version_minor = min;
    next(P);
}

static void parse_target(parser *P)
{
    next(P);
    if (P->t.kind != TK_ID)
        fail_expected(P, "a target name");
    free(P->m->target);
    P->m->target = NULL;
    P->m->target = xstrndup(P, tok_s(P, &P->t), P->t.len);
    next(P);
    while (P->t.kind == TK_COMMA) {
        next(P);
        expect(P, TK_ID, "a target option");
    }
}

/* .loc file line col [, function_name label [+ n]] [, inlined_at file line col] */
static void parse_loc(parser *P)
{
    next(P);
    for (int i = 0; i < 3; i++)
        expect_uint(P, "a number", UINT64_MAX);
    while (P->t.kind == TK_COMMA) {
        next(P);
        if (P->t.kind != TK_ID)
            fail_expected(P, "a .loc attribute");
        if (tok_is(P, "function_name")) {
            next(P);
            expect(P, TK_ID, "a label");
            if (P->t.kind == TK_PLUS) {
                next(P);
                expect_uint(P, "a number", UINT64_MAX);
            }
        } else if (tok_is(P, "inlined_at")) {
            next(P);
            for (int i = 0; i < 3; i++)
                expect_uint(P, "a number", UINT64_MAX);
        } else {
            char buf[64];
            FAIL(P, "unknown .loc attribute %s", tok_desc(P, buf, sizeof buf));
        }
    }
}

/* .file n "name" [, timestamp, size] */
static void parse_file(parser *P)
{
    next(P);
    expect_uint(P, "a file number", UINT64_MAX);
    expect(P, TK_STR, "a file name");
    while (P->t.kind == TK_COMMA) {
        next(P);
        expect_uint(P, "a number", UINT64_MAX);
    }
}

static void parse_section(parser *P)
{
    next(P);
    if (P->t.kind != TK_DOT && P->t.kind != TK_ID)
        fail_expected(P, "a section name");
    next(P);
    if (P->t.kind != TK_LBRACE)
        fail_expected(P, "'{'");
    if (lex_skip_braced(&P->lx, P->d, P->t.line, P->t.col))
        longjmp(P->jb, 1);
    next(P);
}

static void set_policy(parser *P, char **dst, const char *s, uint32_t line, uint32_t col)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        fail_at(P, line, col, "empty scheduler policy name");
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
            fail_at(P, line, col, "malformed scheduler policy name");
    char *p = xstrndup(P, s, n);
    free(*dst);
    *dst = p;
}

/* Policy slot for the current scope: the function being parsed, else the module. */
static char **policy_slot(parser *P) { return P->fi >= 0 ? &CURF(P)->policy : &P->m->policy; }

/* s begins with the pragma keyword key followed by the end or a blank. */
static int pragma_is(const char *s, const char *key)
{
    size_t n = strlen(key);
    return !strncmp(s, key, n) && (s[n] == 0 || s[n] == ' ' || s[n] == '\t');
}

/* "warpsim.regs NAME N": function NAME uses N 32-bit registers per thread, as ptxas
 * allocated them (bench/gen_ptx.sh and tools/ptxas_regs.sh write these from `ptxas -v`).
 * NAME is resolved once the whole module is read (the pragma may come first or last). */
static void pragma_regs(parser *P, const char *s, uint32_t line, uint32_t col)
{
    while (*s == ' ' || *s == '\t')
        s++;
    const char *name = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    size_t n = (size_t)(s - name);
    while (*s == ' ' || *s == '\t')
        s++;
    char *end = NULL;
    unsigned long v = (*s >= '0' && *s <= '9') ? strtoul(s, &end, 10) : 0;
    if (!n || !end || *end || v == 0 || v > 65535)
        fail_at(P, line, col, "pragma warpsim.regs: expected \"warpsim.regs FUNCTION N\" "
                "with 1 <= N <= 65535");
    if (P->n_regs == P->regs_cap_p) {
        size_t cap = P->regs_cap_p ? P->regs_cap_p * 2 : 8;
        pregs *r = realloc(P->regs, cap * sizeof *r);
        if (!r)
            fail_oom(P);
        P->regs = r;
        P->regs_cap_p = cap;
    }
    pregs *r = &P->regs[P->n_regs];
    r->name = NULL;
    r->regs = (uint32_t)v;
    r->line = line;
    r->col = col;
    P->n_regs++;
    r->name = xstrndup(P, name, n);
}

/* Gives each "warpsim.regs" pragma's count to its function; an unknown function or
 * two different counts for one function is an error at the pragma. */
static void resolve_regs(parser *P)
{
    for (size_t i = 0; i < P->n_regs; i++) {
        const pregs *r = &P->regs[i];
        int fi = ptx_find_func(P->m, r->name);
        if (fi < 0)
            fail_at(P, r->line, r->col, "pragma warpsim.regs: no function '%s' in this module",
                    r->name);
        ptx_func *f = &P->m->funcs[fi];
        if (f->ptxas_regs && f->ptxas_regs != r->regs)
            fail_at(P, r->line, r->col, "pragma warpsim.regs: '%s' already has %u registers",
                    r->name, f->ptxas_regs);
        f->ptxas_regs = r->regs;
    }
}

/* .pragma "str" {, "str"} ;   "warpsim.policy NAME" sets the scheduler policy,
 * "warpsim.regs FUNCTION N" a function's register count (pragma_regs). */
static void parse_pragma(parser *P)
{
    next(P);
    for (;;) {
        if (P->t.kind != TK_STR)
            fail_expected(P, "a string");
        const char *s = str_value(P);
        static const char key[] = "warpsim.policy", rkey[] = "warpsim.regs";
        if (pragma_is(s, key))
            set_policy(P, policy_slot(P), s + sizeof key - 1, P->t.line, P->t.col);
        else if (pragma_is(s, rkey))
            pragma_regs(P, s + sizeof rkey - 1, P->t.line, P->t.col);
        next(P);
        if (P->t.kind != TK_COMMA)
            break;
        next(P);
    }
    expect(P, TK_SEMI, "';'");
}

/* .pol "NAME";  (the seed's scheduler directive) */
static void parse_pol(parser *P)
{
    next(P);
    if (P->t.kind != TK_STR)
        fail_expected(P, "a policy name string");
    set_policy(P, policy_slot(P), str_value(P), P->t.line, P->t.col);
    next(P);
    expect(P, TK_SEMI, "';'");
}

/* ---- variables ------------------------------------------------------------------------- */
typedef struct {
    int type;
    uint32_t align;   /* declared, 0 = natural */
    uint32_t vec;
} vattr;

static uint32_t expect_align(parser *P)
{
    uint32_t line = P->t.line, col = P->t.col;
    uint64_t a = expect_uint(P, "an alignment", 1u << 20);
    if (!a || (a & (a - 1)))
        fail_at(P, line, col, "alignment must be a power of two");
    return (uint32_t)a;
}

/* .align N, .v2/.v4, the type, .ptr [.space] [.align N], .attribute(...) in any order. */
static void parse_vattrs(parser *P, vattr *v, int is_param)
{
    memset(v, 0, sizeof *v);
    for (;;) {
        const kw_entry *k = dot_kw(P);
        if (!k)
            break;
        if (k->dir == D_ALIGN) {
            next(P);
            v->align = expect_align(P);
        } else if (k->cls == KC_TYPE) {
            if (v->type)
                FAIL(P, "more than one type in a declaration");
            if (k->val == PT_PRED)
                FAIL(P, "predicate variables are not supported (use .reg .pred)");
            v->type = (int)k->val;
            next(P);
        } else if (k->cls == KC_VEC) {
            if (k->val != 2 && k->val != 4)
                FAIL(P, "bad vector width '%.*s'", (int)P->t.len, tok_s(P, &P->t));
            if (v->vec)
                FAIL(P, "more than one vector width in a declaration");
            v->vec = k->val;
            next(P);
        } else if (k->dir == D_PTR) {
            if (!is_param)
                FAIL(P, ".ptr is only allowed on parameters");
            next(P);
            const kw_entry *s = dot_kw(P);
            if (s && s->cls == KC_SPACE)
                next(P);
            s = dot_kw(P);
            if (s && s->dir == D_ALIGN) {
                next(P);
                expect_align(P); /* alignment of the pointee: nothing to lay out */
            }
        } else if (k->dir == D_ATTRIBUTE) {
            next(P);
            expect(P, TK_LPAREN, "'('");
            for (unsigned depth = 1; depth;) {
                if (P->t.kind == TK_EOF)
                    fail_expected(P, "')'");
                if (P->t.kind == TK_LPAREN)
                    depth++;
                else if (P->t.kind == TK_RPAREN)
                    depth--;
                next(P);
            }
        } else {
            break;
        }
    }
    if (!v->type)
        fail_expected(P, "a type");
    if (!v->vec)
        v->vec = 1;
}

typedef struct {
    uint32_t si;
    int type;
    unsigned esz;
    size_t base;
    uint64_t n, cap;
    int open;
} initctx;

static void init_value(parser *P, initctx *c, int depth)
{
    if (P->t.kind == TK_LBRACE) {
        if (depth >= 8)
            FAIL(P, "initializer nested too deeply");
        next(P);
        if (P->t.kind == TK_RBRACE) {
            next(P);
            return;
        }
        for (;;) {
            init_value(P, c, depth + 1);
            if (P->t.kind == TK_COMMA) {
                next(P);
                continue;
            }
            expect(P, TK_RBRACE, "',' or '}'");
            return;
        }
    }
    uint32_t line = P->t.line, col = P->t.col;
    pconst k;
    if (!read_const(P, &k)) {
        if (P->t.kind == TK_ID)
            FAIL(P, "symbol addresses in initializers are not supported ('%.*s')",
                 (int)(P->t.len > 64 ? 64 : P->t.len), tok_s(P, &P->t));
        fail_expected(P, "an initializer value");
    }
    uint64_t bits;
    const char *why = const_bits(&k, c->type, &bits);
    if (why)
        fail_at(P, line, col, "%s", why);
    ptx_module *m = P->m;
    if (c->n >= c->cap)
        fail_at(P, line, col, "too many initializers for '%s'",
                m->strtab + m->syms[c->si].name);
    size_t off = c->base + c->n * c->esz;
    if (c->open) {
        if (off + c->esz > MAX_INIT_BYTES)
            fail_at(P, line, col, "initialized data too large");
        GROW(P, m->init, m->init_cap, off + c->esz);
        m->init_len = off + c->esz;
    }
    for (unsigned b = 0; b < c->esz; b++)
        m->init[off + b] = b < 8 ? (uint8_t)(bits >> (8 * b)) : 0;
    c->n++;
}

/* `= value` or `= { ... }` for symbol si of `count` elements (open: sized by it). */
static void parse_init(parser *P, uint32_t si, const vattr *v, int open, uint64_t count,
                       uint64_t inner)
{
    ptx_module *m = P->m;
    initctx c = {si, v->type, tsize(v->type), m->init_len, 0, 0, open};
    if (!open) {
        uint64_t size = m->syms[si].size;
        if (size > MAX_INIT_BYTES || m->init_len + size > MAX_INIT_BYTES)
            FAIL(P, "initialized data too large");
        if (size) {
            GROW(P, m->init, m->init_cap, m->init_len + size);
            memset(m->init + m->init_len, 0, size);
            m->init_len += size;
        }
        c.cap = count * v->vec;
    } else {
        c.cap = inner ? UINT64_MAX : 0; /* x[][0] holds nothing */
    }
    init_value(P, &c, 0);
    if (open) {
        uint64_t row = inner * v->vec;
        uint64_t n = row ? (c.n + row - 1) / row * row : 0;
        uint64_t size = n * c.esz;
        if (size > MAX_INIT_BYTES || c.base + size > MAX_INIT_BYTES)
            FAIL(P, "initialized data too large");
        if (size > c.n * c.esz) {
            GROW(P, m->init, m->init_cap, c.base + size);
            memset(m->init + c.base + c.n * c.esz, 0, size - c.n * c.esz);
        }
        m->init_len = c.base + size;
        m->syms[si].size = size;
    }
    m->syms[si].init = (uint32_t)c.base;
}

/* Binds a module-scope symbol: an .extern declaration and its definition share the
 * name (the definition wins); anything else declared twice is an error. */
static void bind_sym(parser *P, uint32_t name, uint32_t si)
{
    ptx_module *m = P->m;
    pname *nm = &P->names[name];
    if (P->depth == 0 && nm->top != NIL && P->binds[nm->top].depth == 0 &&
        P->binds[nm->top].kind == BK_SYM) {
        pbind *b = &P->binds[nm->top];
        const ptx_symbol *old = &m->syms[b->idx], *cur = &m->syms[si];
        if (old->space == cur->space && (old->is_extern || cur->is_extern)) {
            if (!cur->is_extern)
                b->idx = si;
            return;
        }
    }
    bind(P, name, BK_SYM, si, m->syms[si].line, m->syms[si].col);
}

/* name [dims] [= init]: one variable. Returns its symbol index. */
static uint32_t parse_declarator(parser *P, int space, const vattr *v, int32_t fn,
                                 int is_extern, int is_param, int do_bind)
{
    ptx_module *m = P->m;
    if (P->t.kind != TK_ID)
        fail_expected(P, "a variable name");
    lex_tok nt = P->t;
    next(P);
    uint64_t count = 1, inner = 1;
    int open = 0, ndims = 0;
    while (P->t.kind == TK_LBRACK) {
        uint32_t bl = P->t.line, bc = P->t.col;
        next(P);
        if (P->t.kind == TK_RBRACK) {
            if (ndims)
                fail_at(P, bl, bc, "only the first array dimension may be omitted");
            open = 1;
        } else {
            uint64_t n = expect_uint(P, "an array size", MAX_VAR_BYTES);
            if (n && count > MAX_VAR_BYTES / n)
                FAIL(P, "array too large");
            count *= n;
            if (open)
                inner *= n;
        }
        ndims++;
        expect(P, TK_RBRACK, "']'");
    }
    uint64_t esize = (uint64_t)tsize(v->type) * v->vec;
    if (count > MAX_VAR_BYTES / esize)
        fail_at(P, nt.line, nt.col, "variable too large");

    if (m->n_syms >= INT32_MAX)
        fail_oom(P);
    GROW(P, m->syms, P->syms_cap, m->n_syms + 1);
    uint32_t si = m->n_syms++;
    ptx_symbol *s = &m->syms[si];
    memset(s, 0, sizeof *s);
    uint32_t nid = tok_intern(P, &nt);
    s = &m->syms[si];
    s->name = P->names[nid].str;
    s->space = (uint8_t)space;
    s->type = (uint8_t)v->type;
    s->is_extern = (uint8_t)is_extern;
    s->is_param = (uint8_t)is_param;
    s->func = fn;
    s->align = v->align ? v->align : (uint32_t)esize;
    s->size = open ? 0 : count * esize;
    s->init = NIL;
    s->line = nt.line;
    s->col = nt.col;

    if (P->t.kind == TK_EQ) {
        if (is_param || is_extern || (space != SP_GLOBAL && space != SP_CONST))
            FAIL(P, "only .global and .const variables can be initialized");
        next(P);
        parse_init(P, si, v, open, count, inner);
    } else if (open && !is_extern) {
        fail_at(P, nt.line, nt.col, "array size of '%.*s' is missing", (int)nt.len,
                tok_s(P, &nt));
    }
    if (do_bind)
        bind_sym(P, nid, si);
    return si;
}

/* [linkage] .global/.const/.shared/.local/.param attrs name [, name] ; */
static void parse_var_decl(parser *P, int space, int is_extern)
{
    int is_param = space == SP_PARAM;
    next(P);
    vattr v;
    parse_vattrs(P, &v, is_param);
    for (;;) {
        parse_declarator(P, space, &v, P->fi, is_extern, is_param, 1);
        if (P->t.kind != TK_COMMA)
            break;
        next(P);
    }
    expect(P, TK_SEMI, "';'");
}

/* ---- registers ------------------------------------------------------------------------- */
static void add_reg(parser *P, uint32_t name, int type, uint32_t line, uint32_t col)
{
    ptx_func *f = CURF(P);
    if (f->n_regs >= MAX_REGS || P->module_regs++ >= MAX_MODULE_REGS)
        fail_at(P, line, col, "too many registers");
    bind(P, name, BK_REG, f->n_regs, line, col);
    GROW(P, f->regs, P->regs_cap, f->n_regs + 1);
    f->regs[f->n_regs].name = P->names[name].str;
    f->regs[f->n_regs].type = (uint8_t)type;
    f->n_regs++;
}

/* .reg .type name [<N>] {, name [<N>]} ; */
static void parse_reg_decl(parser *P)
{
    next(P);
    int type = 0;
    for (const kw_entry *k; (k = dot_kw(P));) {
        if (k->cls == KC_TYPE) {
            if (type)
                FAIL(P, "more than one type in a .reg declaration");
            type = (int)k->val;
        } else if (k->cls == KC_VEC) {
            FAIL(P, "vector registers are not supported");
        } else {
            FAIL(P, "unexpected '%.*s' in a .reg declaration", (int)P->t.len, tok_s(P, &P->t));
        }
        next(P);
    }
    if (!type)
        fail_expected(P, "a register type");
    if (type == PT_B128)
        FAIL(P, "128-bit registers are not supported");
    for (;;) {
        if (P->t.kind != TK_ID)
            fail_expected(P, "a register name");
        lex_tok nt = P->t;
        next(P);
        if (P->t.kind == TK_LT) {
            next(P);
            uint64_t n = expect_uint(P, "a register count", MAX_REGS_PER_DECL);
            expect(P, TK_GT, "'>'");
            memcpy(P->scratch, tok_s(P, &nt), nt.len);
            for (uint64_t i = 0; i < n; i++) {
                int k = snprintf(P->scratch + nt.len, 24, "%u", (unsigned)i);
                add_reg(P, name_intern(P, P->scratch, nt.len + (size_t)k), type, nt.line, nt.col);
            }
        } else {
            add_reg(P, tok_intern(P, &nt), type, nt.line, nt.col);
        }
        if (P->t.kind != TK_COMMA)
            break;
        next(P);
    }
    expect(P, TK_SEMI, "';'");
}

/* ---- functions ------------------------------------------------------------------------- */
/* ( .param ... {, .param ...} ): appends the symbols, returns their count. */
static uint32_t parse_params(parser *P)
{
    uint32_t n = 0;
    expect(P, TK_LPAREN, "'('");
    if (P->t.kind == TK_RPAREN) {
        next(P);
        return 0;
    }
    for (;;) {
        const kw_entry *k = dot_kw(P);
        if (k && k->dir == D_REG)
            FAIL(P, "register parameters are not supported");
        if (!k || k->cls != KC_SPACE || k->val != SP_PARAM)
            fail_expected(P, "'.param'");
        next(P);
        vattr v;
        parse_vattrs(P, &v, 1);
        parse_declarator(P, SP_PARAM, &v, -1, 0, 1, 0);
        n++;
        if (P->t.kind == TK_COMMA) {
            next(P);
            continue;
        }
        expect(P, TK_RPAREN, "',' or ')'");
        return n;
    }
}

typedef struct {
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
} perf;

static void parse_dims(parser *P, uint32_t d[3])
{
    next(P);
    d[0] = d[1] = d[2] = 1;
    for (int i = 0; i < 3; i++) {
        d[i] = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
        if (i == 2 || P->t.kind != TK_COMMA)
            break;
        next(P);
    }
}

static void parse_perf(parser *P, perf *pf)
{
    uint32_t scratch[3];
    for (const kw_entry *k; (k = dot_kw(P));) {
        switch (k->dir) {
        case D_MAXNTID: parse_dims(P, pf->maxntid); break;
        case D_REQNTID: parse_dims(P, pf->reqntid); break;
        case D_REQNCTAPERCLUSTER: parse_dims(P, scratch); break;
        case D_MINNCTAPERSM:
            next(P);
            pf->minnctapersm = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
            break;
        case D_MAXNREG:
            next(P);
            pf->maxnreg = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
            break;
        case D_MAXNCTAPERSM:
        case D_MAXCLUSTERRANK:
            next(P);
            expect_uint(P, "a number", UINT32_MAX);
            break;
        case D_NORETURN:
        case D_EXPLICITCLUSTER: next(P); break;
        default: return;
        }
    }
}

static void parse_body(parser *P);

/* [linkage] .entry/.func [(rets)] name [(params)] [perf] ( ; | { body } ) */
static void parse_func(parser *P, int is_entry, int visible)
{
    ptx_module *m = P->m;
    next(P);
    uint32_t mark = m->n_syms, n_rets = 0, n_params = 0;
    if (P->t.kind == TK_LPAREN) {
        if (is_entry)
            FAIL(P, "a kernel (.entry) cannot return values");
        n_rets = parse_params(P);
    }
    if (P->t.kind != TK_ID)
        fail_expected(P, "a function name");
    lex_tok nt = P->t;
    uint32_t name = tok_intern(P, &nt);
    next(P);
    if (P->t.kind == TK_LPAREN)
        n_params = parse_params(P);
    perf pf;
    memset(&pf, 0, sizeof pf);
    parse_perf(P, &pf);
    int has_body = P->t.kind == TK_LBRACE;
    if (!has_body && P->t.kind != TK_SEMI)
        fail_expected(P, "'{' or ';'");

    int32_t fi = P->names[name].func;
    int created = fi < 0;
    ptx_func *f;
    if (fi >= 0) {
        f = &m->funcs[fi];
        int same = f->is_entry == is_entry && f->n_params == n_params && f->n_rets == n_rets;
        for (uint32_t i = 0; same && i < n_rets + n_params; i++) {
            uint32_t old = i < n_rets ? f->rets[i] : f->params[i - n_rets];
            same = m->syms[old].size == m->syms[mark + i].size;
        }
        if (!same)
            fail_at(P, nt.line, nt.col, "conflicting declaration of '%s'", name_str(P, name));
        if (has_body && !f->is_decl)
            fail_at(P, nt.line, nt.col, "duplicate definition of function '%s'",
                    name_str(P, name));
        if (has_body) {
            /* the definition's parameter names replace the prototype's */
            for (uint32_t i = 0; i < n_rets + n_params; i++) {
                uint32_t old = i < n_rets ? f->rets[i] : f->params[i - n_rets];
                m->syms[old] = m->syms[mark + i];
                m->syms[old].func = fi;
            }
            f->is_decl = 0;
            f->line = nt.line;
            f->col = nt.col;
        }
        m->n_syms = mark;
    } else {
        if (m->n_funcs >= INT32_MAX)
            fail_oom(P);
        GROW(P, m->funcs, P->funcs_cap, m->n_funcs + 1);
        fi = (int32_t)m->n_funcs++;
        f = &m->funcs[fi];
        memset(f, 0, sizeof *f);
        f->name = P->names[name].str;
        f->is_entry = (uint8_t)is_entry;
        f->is_decl = (uint8_t)!has_body;
        f->line = nt.line;
        f->col = nt.col;
        f->frame_align = 1;
        P->names[name].func = fi;
        if (n_rets && !(f->rets = malloc(n_rets * sizeof *f->rets)))
            fail_oom(P);
        f->n_rets = n_rets;
        if (n_params && !(f->params = malloc(n_params * sizeof *f->params)))
            fail_oom(P);
        f->n_params = n_params;
        for (uint32_t i = 0; i < n_rets; i++)
            f->rets[i] = mark + i;
        for (uint32_t i = 0; i < n_params; i++)
            f->params[i] = mark + n_rets + i;
        for (uint32_t i = mark; i < m->n_syms; i++)
            m->syms[i].func = fi;
    }
    f->is_visible |= (uint8_t)visible;
    if (has_body || created) {
        memcpy(f->maxntid, pf.maxntid, sizeof pf.maxntid);
        memcpy(f->reqntid, pf.reqntid, sizeof pf.reqntid);
        f->minnctapersm = pf.minnctapersm;
        f->maxnreg = pf.maxnreg;
    }
    if (has_body) {
        P->fi = fi;
        parse_body(P);
        P->fi = -1;
    } else {
        next(P);
    }
}

static void add_fixup(parser *P, uint32_t insn, int op, uint32_t name, uint32_t line, uint32_t col)
{
    GROW(P, P->fix, P->fix_cap, P->n_fix + 1);
    pfix *x = &P->fix[P->n_fix++];
    x->insn = insn;
    x->op = (uint8_t)op;
    x->name = name;
    x->line = line;
    x->col = col;
}

static ptx_insn *new_insn(parser *P)
{
    ptx_func *f = CURF(P);
    if (f->n_insns >= INT32_MAX)
        fail_oom(P);
    GROW(P, f->insns, P->insns_cap, f->n_insns + 1);
    return &f->insns[f->n_insns++];
}

static void finish_func(parser *P, uint32_t line, uint32_t col)
{
    ptx_func *f = CURF(P);
    int past_end = 0;
    for (size_t i = 0; i < P->n_fix; i++) {
        const pfix *x = &P->fix[i];
        const pname *nm = &P->names[x->name];
        if (nm->label_gen != P->gen)
            fail_at(P, x->line, x->col, "undefined label '%s'", name_str(P, x->name));
        f->insns[x->insn].ops[x->op].r = nm->label;
        past_end |= nm->label == f->n_insns;
    }
    const ptx_insn *last = f->n_insns ? &f->insns[f->n_insns - 1] : NULL;
    int ends = last && last->guard < 0 &&
               (last->op == OP_RET || last->op == OP_EXIT || last->op == OP_BRA ||
                last->op == OP_TRAP);
    if (past_end || !ends) {
        ptx_insn *in = new_insn(P);
        memset(in, 0, sizeof *in);
        in->op = OP_RET;
        in->vec = 1;
        in->guard = -1;
        in->cls = PC_CTRL;
        in->line = line;
        in->col = col;
    }
    unbind_to(P, P->marks[1]);
    P->depth = 0;
}

static void parse_label(parser *P, const lex_tok *id)
{
    uint32_t nm = tok_intern(P, id);
    const kw_entry *k = dot_kw(P);
    if (k && (k->dir == D_CALLPROTOTYPE || k->dir == D_CALLTARGETS || k->dir == D_BRANCHTARGETS)) {
        if (P->names[nm].proto_gen == P->gen)
            fail_at(P, id->line, id->col, "duplicate definition of '%s'", name_str(P, nm));
        P->names[nm].proto_gen = P->gen;
        while (P->t.kind != TK_SEMI) {
            if (P->t.kind == TK_EOF)
                fail_expected(P, "';'");
            next(P);
        }
        next(P);
        return;
    }
    if (P->names[nm].label_gen == P->gen)
        fail_at(P, id->line, id->col, "duplicate label '%s'", name_str(P, nm));
    P->names[nm].label_gen = P->gen;
    P->names[nm].label = CURF(P)->n_insns;
}

static void parse_insn(parser *P, const lex_tok *opcode);

static void parse_body_directive(parser *P)
{
    const kw_entry *k = dot_kw(P);
    if (k && k->dir == D_REG) {
        parse_reg_decl(P);
    } else if (k && k->cls == KC_SPACE) {
        if (k->val != SP_LOCAL && k->val != SP_SHARED && k->val != SP_PARAM)
            FAIL(P, "'%.*s' variables must be declared at module scope", (int)P->t.len,
                 tok_s(P, &P->t));
        parse_var_decl(P, (int)k->val, 0);
    } else if (k && k->dir == D_PRAGMA) {
        parse_pragma(P);
    } else if (k && k->dir == D_POL) {
        parse_pol(P);
    } else if (k && k->dir == D_LOC) {
        parse_loc(P);
    } else {
        FAIL(P, "unexpected directive '%.*s' in a function body",
             (int)(P->t.len > 64 ? 64 : P->t.len), tok_s(P, &P->t));
    }
}

static void parse_body(parser *P)
{
    ptx_module *m = P->m;
    ptx_func *f = CURF(P);
    P->gen++;
    P->regs_cap = P->insns_cap = 0;
    P->n_fix = 0;
    P->depth = 1;
    P->marks[1] = P->n_binds;
    for (uint32_t i = 0; i < f->n_rets + f->n_params; i++) {
        uint32_t si = i < f->n_rets ? f->rets[i] : f->params[i - f->n_rets];
        const char *s = m->strtab + m->syms[si].name;
        bind(P, name_find(P, s, strlen(s)), BK_SYM, si, m->syms[si].line, m->syms[si].col);
    }
    next(P);
    for (;;) {
        switch (P->t.kind) {
        case TK_RBRACE:
            if (P->depth == 1) {
                finish_func(P, P->t.line, P->t.col);
                next(P);
                return;
            }
            unbind_to(P, P->marks[P->depth]);
            P->depth--;
            next(P);
            break;
        case TK_LBRACE:
            if (P->depth >= MAX_DEPTH)
                FAIL(P, "blocks nested too deeply");
            P->depth++;
            P->marks[P->depth] = P->n_binds;
            next(P);
            break;
        case TK_SEMI: next(P); break;
        case TK_DOT: parse_body_directive(P); break;
        case TK_AT: parse_insn(P, NULL); break;
        case TK_ID: {
            lex_tok id = P->t;
            next(P);
            if (P->t.kind == TK_COLON) {
                next(P);
                parse_label(P, &id);
            } else {
                parse_insn(P, &id);
            }
            break;
        }
        case TK_EOF:
            FAIL(P, "unexpected end of file in the body of '%s' (missing '}')",
                 m->strtab + CURF(P)->name);
        default: fail_expected(P, "an instruction or a directive");
        }
    }
}

/* ---- instruction modifiers --------------------------------------------------------------- */
enum { A_SPACE = 1, A_CMP = 2, A_RND = 4, A_COP = 8, A_SEM = 16, A_SCOPE = 32, A_VEC = 64,
       A_HINT = 128 };

typedef struct {
    uint16_t allow;   /* A_* classes accepted                                  */
    uint32_t flags;   /* MF_* flags accepted                                   */
    uint32_t t1, t2;  /* accepted first / second types (bit per ptx_type)      */
    uint8_t nt_min, nt_max;
} op_spec;

#define T(x) (1u << PT_##x)
#define TS_B (T(B16) | T(B32) | T(B64))
#define TS_U (T(U16) | T(U32) | T(U64))
#define TS_S (T(S16) | T(S32) | T(S64))
#define TS_I (TS_U | TS_S)
#define TS_F (T(F32) | T(F64))
#define TS_H (T(F16) | T(F16X2) | T(BF16) | T(BF16X2))
#define TS_8 (T(B8) | T(U8) | T(S8))
#define TS_I32 (T(U32) | T(S32) | T(U64) | T(S64))
#define TS_DATA (TS_8 | TS_B | TS_I | TS_F)
#define TS_ATOM (T(B16) | T(B32) | T(B64) | T(U32) | T(U64) | T(S32) | T(S64) | TS_F | TS_H)

static const op_spec op_specs[OP__COUNT] = {
    [OP_ABS] = {0, MF_FTZ, T(S16) | T(S32) | T(S64) | TS_F | TS_H, 0, 1, 1},
    [OP_ADD] = {A_RND, MF_SAT | MF_FTZ | MF_CC, TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_SUB] = {A_RND, MF_SAT | MF_FTZ | MF_CC, TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_ADDC] = {0, MF_CC, TS_I32, 0, 1, 1},
    [OP_SUBC] = {0, MF_CC, TS_I32, 0, 1, 1},
    [OP_MUL] = {A_RND, MF_FTZ | MF_SAT, TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_MAD] = {A_RND, MF_FTZ | MF_SAT | MF_CC, TS_I | TS_F, 0, 1, 1},
    [OP_MADC] = {0, MF_CC, TS_I32, 0, 1, 1},
    [OP_MUL24] = {0, 0, T(U32) | T(S32), 0, 1, 1},
    [OP_MAD24] = {0, MF_SAT, T(U32) | T(S32), 0, 1, 1},
    [OP_SAD] = {0, 0, TS_I, 0, 1, 1},
    [OP_DIV] = {A_RND, MF_FTZ | MF_APPROX | MF_FULL, TS_I | TS_F, 0, 1, 1},
    [OP_REM] = {0, 0, TS_I, 0, 1, 1},
    [OP_NEG] = {0, MF_FTZ, T(S16) | T(S32) | T(S64) | TS_F | TS_H, 0, 1, 1},
    [OP_MIN] = {0, MF_FTZ | MF_RELU, TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_MAX] = {0, MF_FTZ | MF_RELU, TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_FMA] = {A_RND, MF_FTZ | MF_SAT | MF_RELU, TS_F | TS_H, 0, 1, 1},
    [OP_COPYSIGN] = {0, 0, TS_F, 0, 1, 1},
    [OP_TESTP] = {0, 0, TS_F, 0, 1, 1},
    [OP_RCP] = {A_RND, MF_FTZ | MF_APPROX, TS_F, 0, 1, 1},
    [OP_SQRT] = {A_RND, MF_FTZ | MF_APPROX, TS_F, 0, 1, 1},
    [OP_RSQRT] = {0, MF_FTZ | MF_APPROX, TS_F, 0, 1, 1},
    [OP_SIN] = {0, MF_FTZ | MF_APPROX, T(F32), 0, 1, 1},
    [OP_COS] = {0, MF_FTZ | MF_APPROX, T(F32), 0, 1, 1},
    [OP_LG2] = {0, MF_FTZ | MF_APPROX, T(F32), 0, 1, 1},
    [OP_EX2] = {0, MF_FTZ | MF_APPROX, T(F32) | TS_H, 0, 1, 1},
    [OP_TANH] = {0, MF_APPROX, T(F32) | TS_H, 0, 1, 1},
    [OP_AND] = {0, 0, T(PRED) | TS_B, 0, 1, 1},
    [OP_OR] = {0, 0, T(PRED) | TS_B, 0, 1, 1},
    [OP_XOR] = {0, 0, T(PRED) | TS_B, 0, 1, 1},
    [OP_NOT] = {0, 0, T(PRED) | TS_B, 0, 1, 1},
    [OP_CNOT] = {0, 0, TS_B, 0, 1, 1},
    [OP_LOP3] = {0, 0, T(B32), 0, 1, 1},
    [OP_SHL] = {0, 0, TS_B, 0, 1, 1},
    [OP_SHR] = {0, 0, TS_B | TS_I, 0, 1, 1},
    [OP_SHF] = {0, MF_WRAP | MF_CLAMP, T(B32), 0, 1, 1},
    [OP_BFE] = {0, 0, TS_I32, 0, 1, 1},
    [OP_BFI] = {0, 0, T(B32) | T(B64), 0, 1, 1},
    [OP_BREV] = {0, 0, T(B32) | T(B64), 0, 1, 1},
    [OP_POPC] = {0, 0, T(B32) | T(B64), 0, 1, 1},
    [OP_CLZ] = {0, 0, T(B32) | T(B64), 0, 1, 1},
    [OP_BFIND] = {0, MF_SHIFTAMT, TS_I32, 0, 1, 1},
    [OP_FNS] = {0, 0, T(B32), 0, 1, 1},
    [OP_PRMT] = {0, 0, T(B32), 0, 1, 1},
    [OP_DP4A] = {0, 0, T(U32) | T(S32), T(U32) | T(S32), 2, 2},
    [OP_DP2A] = {0, 0, T(U32) | T(S32), T(U32) | T(S32), 2, 2},
    [OP_SETP] = {A_CMP, MF_FTZ, TS_B | TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_SET] = {A_CMP, MF_FTZ,
                T(U16) | T(S16) | T(U32) | T(S32) | T(F32) | TS_H,
                TS_B | TS_I | TS_F | TS_H, 2, 2},
    [OP_SELP] = {0, 0, TS_B | TS_I | TS_F, 0, 1, 1},
    [OP_SLCT] = {0, MF_FTZ, TS_B | TS_I | TS_F, T(S32) | T(F32), 2, 2},
    [OP_MOV] = {0, 0, T(PRED) | TS_B | TS_I | TS_F | TS_H, 0, 1, 1},
    [OP_CVT] = {A_RND, MF_FTZ | MF_SAT | MF_RELU,
                T(U8) | T(S8) | TS_I | TS_F | TS_H, T(U8) | T(S8) | TS_I | TS_F | T(F16) | T(BF16),
                2, 2},
    [OP_CVTA] = {A_SPACE, MF_TO, T(U32) | T(U64), 0, 1, 1},
    [OP_ISSPACEP] = {A_SPACE, 0, 0, 0, 0, 0},
    [OP_LD] = {A_SPACE | A_SEM | A_SCOPE | A_COP | A_VEC | A_HINT, MF_NC, TS_DATA, 0, 1, 1},
    [OP_LDU] = {A_SPACE | A_VEC, 0, TS_DATA, 0, 1, 1},
    [OP_ST] = {A_SPACE | A_SEM | A_SCOPE | A_COP | A_VEC | A_HINT, 0, TS_DATA, 0, 1, 1},
    [OP_PREFETCH] = {A_SPACE | A_HINT, 0, 0, 0, 0, 0},
    [OP_PREFETCHU] = {0, 0, 0, 0, 0, 0},
    [OP_ATOM] = {A_SPACE | A_SEM | A_SCOPE, MF_NOINC, TS_ATOM, 0, 1, 1},
    [OP_RED] = {A_SPACE | A_SEM | A_SCOPE, MF_NOINC, TS_ATOM, 0, 1, 1},
    [OP_BAR] = {A_SCOPE, MF_ALIGNED, T(U32) | T(PRED), 0, 0, 1},
    [OP_BARRIER] = {A_SCOPE, MF_ALIGNED, T(U32) | T(PRED), 0, 0, 1},
    [OP_MEMBAR] = {A_SCOPE, 0, 0, 0, 0, 0},
    [OP_FENCE] = {A_SEM | A_SCOPE, 0, 0, 0, 0, 0},
    [OP_VOTE] = {0, MF_SYNC, T(PRED) | T(B32), 0, 1, 1},
    [OP_SHFL] = {0, MF_SYNC, T(B32), 0, 1, 1},
    [OP_MATCH] = {0, MF_SYNC, T(B32) | T(B64), 0, 1, 1},
    [OP_REDUX] = {0, MF_SYNC, T(B32) | T(U32) | T(S32), 0, 1, 1},
    [OP_ACTIVEMASK] = {0, 0, T(B32), 0, 1, 1},
    [OP_BRA] = {0, MF_UNI, 0, 0, 0, 0},
    [OP_BRX] = {0, MF_UNI, 0, 0, 0, 0},
    [OP_CALL] = {0, MF_UNI, 0, 0, 0, 0},
    [OP_RET] = {0, MF_UNI, 0, 0, 0, 0},
    [OP_EXIT] = {0, 0, 0, 0, 0, 0},
    [OP_TRAP] = {0, 0, 0, 0, 0, 0},
    [OP_BRKPT] = {0, 0, 0, 0, 0, 0},
    [OP_NANOSLEEP] = {0, 0, T(U32), 0, 1, 1},
    [OP_PMEVENT] = {0, 0, 0, 0, 0, 0},
    [OP_NOP] = {0, 0, 0, 0, 0, 0},
};

/* Decoding state of the words whose meaning depends on the opcode. */
typedef struct {
    uint8_t types[2], nt;
    uint16_t seen;          /* A_* classes already given                      */
    uint8_t word_seen;      /* an opcode-specific word already given          */
    uint8_t bar_sync, bar_arrive, bar_red, bar_warp, bar_op;
} dstate;

static const char *set_sub(ptx_insn *in, dstate *st, int v)
{
    if (st->word_seen)
        return "conflicting modifiers";
    st->word_seen = 1;
    in->sub = (uint8_t)v;
    return NULL;
}

/* Applies an opcode-specific word; NULL on success, else why it is rejected. */
static const char *apply_word(ptx_insn *in, dstate *st, int w)
{
    static const char bad[] = "modifier not valid for this opcode";
    switch (in->op) {
    case OP_MUL:
    case OP_MAD:
        if (w == W_WIDE)
            return set_sub(in, st, MUL_WIDE);
        /* fall through */
    case OP_MUL24:
    case OP_MAD24:
    case OP_MADC:
    case OP_DP2A:
        if (w == W_LO || w == W_HI)
            return set_sub(in, st, w == W_LO ? MUL_LO : MUL_HI);
        return bad;
    case OP_SETP:
    case OP_SET:
        if (w == W_LO || w == W_HI) {
            if (in->cmp)
                return "more than one comparison";
            in->cmp = w == W_LO ? CMP_LO : CMP_HI;
            return NULL;
        }
        if (w == W_AND || w == W_OR || w == W_XOR)
            return set_sub(in, st, w == W_AND ? BOOL_AND : w == W_OR ? BOOL_OR : BOOL_XOR);
        return bad;
    case OP_ATOM:
    case OP_RED:
    case OP_REDUX: {
        static const uint8_t aop[] = {[W_ADD] = AOP_ADD, [W_MIN] = AOP_MIN, [W_MAX] = AOP_MAX,
                                      [W_INC] = AOP_INC, [W_DEC] = AOP_DEC, [W_CAS] = AOP_CAS,
                                      [W_EXCH] = AOP_EXCH, [W_AND] = AOP_AND, [W_OR] = AOP_OR,
                                      [W_XOR] = AOP_XOR};
        if (in->op == OP_REDUX && w == W_SYNC) {
            if (in->flags & MF_SYNC)
                return "duplicate modifier";
            in->flags |= MF_SYNC;
            return NULL;
        }
        if ((size_t)w >= sizeof aop || !aop[w])
            return bad;
        if (in->op == OP_RED && (aop[w] == AOP_CAS || aop[w] == AOP_EXCH))
            return "red has no .cas or .exch";
        if (in->op == OP_REDUX && (aop[w] == AOP_CAS || aop[w] == AOP_EXCH || aop[w] == AOP_INC ||
                                   aop[w] == AOP_DEC))
            return bad;
        return set_sub(in, st, aop[w]);
    }
    case OP_VOTE:
    case OP_SHFL:
    case OP_MATCH:
        if (w == W_SYNC) {
            if (in->flags & MF_SYNC)
                return "duplicate modifier";
            in->flags |= MF_SYNC;
            return NULL;
        }
        if (in->op == OP_VOTE && (w == W_ALL || w == W_ANY || w == W_UNI || w == W_BALLOT))
            return set_sub(in, st, w == W_ALL ? VOTE_ALL : w == W_ANY ? VOTE_ANY
                                   : w == W_UNI ? VOTE_UNI : VOTE_BALLOT);
        if (in->op == OP_SHFL && (w == W_UP || w == W_DOWN || w == W_BFLY || w == W_IDX))
            return set_sub(in, st, w == W_UP ? SHFL_UP : w == W_DOWN ? SHFL_DOWN
                                   : w == W_BFLY ? SHFL_BFLY : SHFL_IDX);
        if (in->op == OP_MATCH && (w == W_ANY || w == W_ALL))
            return set_sub(in, st, w == W_ANY ? MATCH_ANY : MATCH_ALL);
        return bad;
    case OP_BAR:
    case OP_BARRIER: {
        uint8_t *slot = w == W_SYNC ? &st->bar_sync : w == W_ARRIVE ? &st->bar_arrive
                        : w == W_RED ? &st->bar_red : w == W_WARP && in->op == OP_BAR ? &st->bar_warp
                        : NULL;
        if (slot) {
            if (*slot)
                return "duplicate modifier";
            *slot = 1;
            return NULL;
        }
        if (w == W_POPC || w == W_AND || w == W_OR) {
            if (st->bar_op)
                return "conflicting modifiers";
            st->bar_op = (uint8_t)(w == W_POPC ? BAR_RED_POPC : w == W_AND ? BAR_RED_AND
                                                                           : BAR_RED_OR);
            return NULL;
        }
        return bad;
    }
    case OP_TESTP:
        switch (w) {
        case W_FINITE: return set_sub(in, st, TESTP_FINITE);
        case W_INFINITE: return set_sub(in, st, TESTP_INFINITE);
        case W_NUMBER: return set_sub(in, st, TESTP_NUMBER);
        case W_NOTANUMBER: return set_sub(in, st, TESTP_NOTANUMBER);
        case W_NORMAL: return set_sub(in, st, TESTP_NORMAL);
        case W_SUBNORMAL: return set_sub(in, st, TESTP_SUBNORMAL);
        default: return bad;
        }
    case OP_SHF:
        if (w == W_L || w == W_R)
            return set_sub(in, st, w == W_L ? SHF_L : SHF_R);
        return bad;
    case OP_PRMT:
        switch (w) {
        case W_F4E: return set_sub(in, st, PRMT_F4E);
        case W_B4E: return set_sub(in, st, PRMT_B4E);
        case W_RC8: return set_sub(in, st, PRMT_RC8);
        case W_ECL: return set_sub(in, st, PRMT_ECL);
        case W_ECR: return set_sub(in, st, PRMT_ECR);
        case W_RC16: return set_sub(in, st, PRMT_RC16);
        default: return bad;
        }
    case OP_MEMBAR:
        if (w != W_GL)
            return bad;
        if (st->seen & A_SCOPE)
            return "more than one scope";
        st->seen |= A_SCOPE;
        in->scope = SCOPE_GPU;
        return NULL;
    case OP_PREFETCH:
    case OP_PREFETCHU:
        if (w == W_L1 || (w == W_L2 && in->op == OP_PREFETCH))
            return set_sub(in, st, w == W_L1 ? 1 : 2);
        return bad;
    case OP_MIN:
    case OP_MAX:
        if (w == W_NAN)
            return set_sub(in, st, 1);
        return bad;
    case OP_PMEVENT:
        if (w == W_MASK)
            return set_sub(in, st, 1);
        return bad;
    case OP_BRA:
    case OP_CALL:
    case OP_RET:
    case OP_BRX:
        if (w == W_UNI) {
            if (in->flags & MF_UNI)
                return "duplicate modifier";
            in->flags |= MF_UNI;
            return NULL;
        }
        if (in->op == OP_BRX && w == W_IDX)
            return set_sub(in, st, 1);
        return bad;
    default:
        return bad;
    }
}

static int cmp_unordered(int c) { return c >= CMP_EQU; }
static int cmp_unsigned_only(int c) { return c >= CMP_LO && c <= CMP_HS; }
static int cmp_ordering(int c) { return (c >= CMP_LT && c <= CMP_GE) || cmp_unsigned_only(c); }

/* Checks that decoded modifiers make sense together; NULL or the reason. */
static const char *check_combo(ptx_insn *in, const dstate *st)
{
    int t = in->type, fl = type_is_f(t);
    uint32_t f = in->flags;
    switch (in->op) {
    case OP_ADD:
    case OP_SUB:
        if (!fl && (in->rnd || (f & MF_FTZ)))
            return "rounding and .ftz need a floating-point type";
        if ((f & MF_SAT) && t != PT_S32 && !fl)
            return ".sat needs .s32 or a floating-point type";
        if ((f & MF_CC) && !(TS_I32 & (1u << t)))
            return ".cc needs a 32- or 64-bit integer type";
        break;
    case OP_MUL:
    case OP_MAD:
        if (fl) {
            if (in->sub)
                return ".lo/.hi/.wide need an integer type";
            if (f & MF_CC)
                return ".cc needs an integer type";
        } else {
            if (!in->sub)
                return "integer multiply needs .lo, .hi or .wide";
            if (in->rnd || (f & MF_FTZ))
                return "rounding and .ftz need a floating-point type";
            if (in->sub == MUL_WIDE && tsize(t) > 4)
                return ".wide needs a 16- or 32-bit type";
            if ((f & MF_SAT) && !(in->op == OP_MAD && in->sub == MUL_HI && t == PT_S32))
                return ".sat is only valid on mad.hi.sat.s32";
            if ((f & MF_CC) && !(TS_I32 & (1u << t)))
                return ".cc needs a 32- or 64-bit integer type";
        }
        break;
    case OP_MUL24:
    case OP_MAD24:
    case OP_MADC:
        if (!in->sub)
            return "needs .lo or .hi";
        break;
    case OP_DIV:
        if (!fl && (in->rnd || (f & (MF_FTZ | MF_APPROX | MF_FULL))))
            return "rounding, .approx, .full and .ftz need a floating-point type";
        if (!!in->rnd + !!(f & MF_APPROX) + !!(f & MF_FULL) > 1)
            return "conflicting rounding modifiers";
        if (t == PT_F64 && (f & (MF_APPROX | MF_FULL | MF_FTZ)))
            return "div.f64 takes only a rounding modifier";
        break;
    case OP_RCP:
    case OP_SQRT:
        if (in->rnd && (f & MF_APPROX))
            return "conflicting rounding modifiers";
        if (in->rnd > RND_RP)
            return "bad rounding modifier";
        if (t == PT_F64 && (f & MF_APPROX) && !(in->op == OP_RCP && (f & MF_FTZ)))
            return "only rcp.approx.ftz.f64 is approximate in double precision";
        break;
    case OP_RSQRT:
    case OP_SIN:
    case OP_COS:
    case OP_LG2:
    case OP_EX2:
    case OP_TANH:
        if (!(f & MF_APPROX))
            return "needs .approx";
        break;
    case OP_ADDC:
    case OP_SUBC:
        break;
    case OP_MIN:
    case OP_MAX:
        if (in->sub && !fl)
            return ".NaN needs a floating-point type";
        if ((f & MF_FTZ) && !fl)
            return ".ftz needs a floating-point type";
        break;
    case OP_ABS:
    case OP_NEG:
        if ((f & MF_FTZ) && !fl)
            return ".ftz needs a floating-point type";
        break;
    case OP_FMA:
        if (in->rnd > RND_RP)
            return "bad rounding modifier";
        break;
    case OP_TESTP:
        if (!in->sub)
            return "needs a test (.finite, .infinite, .number, .notanumber, .normal, .subnormal)";
        break;
    case OP_SHF:
        if (!in->sub)
            return "needs .l or .r";
        if (!(f & MF_WRAP) == !(f & MF_CLAMP))
            return "needs exactly one of .wrap and .clamp";
        break;
    case OP_SETP:
    case OP_SET: {
        int ct = in->op == OP_SET ? in->type2 : t;
        if (!in->cmp)
            return "needs a comparison";
        if ((f & MF_FTZ) && !type_is_f(ct))
            return ".ftz needs a floating-point type";
        if (!type_is_f(ct) && cmp_unordered(in->cmp))
            return "unordered comparisons need a floating-point type";
        if (type_is_f(ct) && cmp_unsigned_only(in->cmp))
            return "lo/ls/hi/hs need an integer type";
        if (type_is_b(ct) && cmp_ordering(in->cmp))
            return "only eq and ne compare untyped bits";
        if (type_is_s(ct) && cmp_unsigned_only(in->cmp))
            return "lo/ls/hi/hs need an unsigned type";
        break;
    }
    case OP_SLCT:
        if ((f & MF_FTZ) && in->type2 != PT_F32)
            return ".ftz needs an .f32 selector";
        break;
    case OP_CVT: {
        int t2 = in->type2;
        if (in->rnd && !type_is_f(t) && !type_is_f(t2))
            return "rounding needs a floating-point type";
        if (in->rnd >= RND_RNI && !type_is_f(t2))
            return "integer rounding needs a floating-point source";
        if (in->rnd && in->rnd < RND_RNI && !type_is_f(t))
            return "float->int conversion needs an integer rounding (.rni .rzi .rmi .rpi)";
        if ((t == PT_F16X2 || t == PT_BF16X2) && t2 != PT_F32)
            return "packed conversions take .f32 sources";
        break;
    }
    case OP_CVTA:
    case OP_ISSPACEP:
        if (!in->space)
            return "needs a state space";
        break;
    case OP_LD:
    case OP_LDU:
    case OP_ST:
        if ((f & MF_NC) && in->space != SP_GLOBAL)
            return ".nc needs .global";
        if (in->op == OP_ST && in->sem == SEM_ACQUIRE)
            return "st cannot be .acquire";
        if (in->op != OP_ST && in->sem == SEM_RELEASE)
            return "ld cannot be .release";
        if (in->sem == SEM_ACQ_REL || in->sem == SEM_SC)
            return "bad memory-ordering modifier";
        if ((in->sem == SEM_RELAXED || in->sem == SEM_ACQUIRE || in->sem == SEM_RELEASE) &&
            !in->scope)
            return "ordering needs a scope (.cta .cluster .gpu .sys)";
        if (in->scope && (in->sem == SEM_NONE || in->sem == SEM_WEAK || in->sem == SEM_VOLATILE))
            return "a scope needs .relaxed, .acquire or .release";
        if (in->space == SP_CONST || in->space == SP_PARAM) {
            if (in->op == OP_ST && in->space == SP_CONST)
                return "cannot store to .const";
        }
        break;
    case OP_ATOM:
    case OP_RED: {
        uint32_t tb = 1u << t;
        if (!in->sub)
            return "needs an operation";
        if (in->space != SP_GENERIC && in->space != SP_GLOBAL && in->space != SP_SHARED)
            return "needs .global, .shared or generic addressing";
        switch (in->sub) {
        case AOP_AND:
        case AOP_OR:
        case AOP_XOR:
            if (!(tb & (T(B32) | T(B64))))
                return "bitwise atomics need .b32 or .b64";
            break;
        case AOP_CAS:
            if (!(tb & (T(B16) | T(B32) | T(B64))))
                return ".cas needs .b16, .b32 or .b64";
            break;
        case AOP_EXCH:
            if (!(tb & (T(B32) | T(B64))))
                return ".exch needs .b32 or .b64";
            break;
        case AOP_INC:
        case AOP_DEC:
            if (t != PT_U32)
                return ".inc and .dec need .u32";
            break;
        case AOP_ADD:
            if (tb & TS_B)
                return ".add needs a typed operand";
            if ((f & MF_NOINC) && !(tb & TS_H))
                return ".noftz needs a half-precision type";
            break;
        default:
            if (tb & (TS_B | TS_F))
                return ".min and .max need an integer or half type";
            break;
        }
        if ((tb & TS_H) && in->sub == AOP_ADD && !(f & MF_NOINC))
            return "half-precision .add needs .noftz";
        if ((f & MF_NOINC) && in->sub != AOP_ADD)
            return ".noftz only applies to .add";
        if (in->sem == SEM_WEAK || in->sem == SEM_VOLATILE || in->sem == SEM_SC)
            return "bad memory-ordering modifier";
        if (in->op == OP_RED && in->sem == SEM_ACQUIRE)
            return "red cannot be .acquire";
        break;
    }
    case OP_PREFETCH:
    case OP_PREFETCHU:
        if (!in->sub)
            return "needs a cache level (.L1 or .L2)";
        if (in->space > SP_GENERIC && in->space != SP_GLOBAL && in->space != SP_LOCAL)
            return "needs .global, .local or generic addressing";
        break;
    case OP_BAR:
    case OP_BARRIER: {
        int n = st->bar_sync + st->bar_arrive + st->bar_red;
        if (st->bar_warp) {
            if (!st->bar_sync || n != 1 || in->nops || st->nt || (f & MF_ALIGNED) || in->scope)
                return "bad bar.warp.sync";
            in->sub = BAR_WARP_SYNC;
            break;
        }
        if (n != 1)
            return "needs exactly one of .sync, .arrive, .red";
        if (in->scope && in->scope != SCOPE_CTA)
            return "barriers only take .cta";
        if (st->bar_red) {
            if (!st->bar_op)
                return ".red needs .popc, .and or .or";
            if (st->nt != 1 || (st->bar_op == BAR_RED_POPC) != (t == PT_U32))
                return ".red.popc needs .u32, .red.and/.or need .pred";
            in->sub = st->bar_op;
        } else {
            if (st->bar_op || st->nt)
                return "only .red takes an operation and a type";
            in->sub = st->bar_sync ? BAR_SYNC : BAR_ARRIVE;
        }
        break;
    }
    case OP_MEMBAR:
        if (!in->scope || in->scope == SCOPE_CLUSTER)
            return "needs .cta, .gl or .sys";
        break;
    case OP_FENCE:
        if (!in->scope)
            return "needs a scope";
        if (in->sem != SEM_SC && in->sem != SEM_ACQ_REL)
            return "needs .sc or .acq_rel";
        break;
    case OP_VOTE:
        if (!in->sub)
            return "needs .all, .any, .uni or .ballot";
        if ((in->sub == VOTE_BALLOT) != (t == PT_B32))
            return "vote.ballot needs .b32, the others .pred";
        break;
    case OP_SHFL:
        if (!in->sub)
            return "needs .up, .down, .bfly or .idx";
        break;
    case OP_MATCH:
        if (!in->sub || !(f & MF_SYNC))
            return "needs .sync and .any or .all";
        break;
    case OP_REDUX:
        if (!in->sub || !(f & MF_SYNC))
            return "needs .sync and an operation";
        if ((in->sub == AOP_AND || in->sub == AOP_OR || in->sub == AOP_XOR) != (t == PT_B32))
            return "bitwise reductions need .b32, arithmetic ones .u32 or .s32";
        break;
    case OP_BRX:
        return "brx.idx is not supported";
    default:
        break;
    }
    return NULL;
}

static int cls_of(const ptx_insn *in)
{
    int c = ptx_op_info[in->op].cls;
    if (c == PC_ALU && (in->type == PT_F64 || (in->op == OP_CVT && in->type2 == PT_F64)))
        c = PC_DP;
    return c;
}

/* Decodes the dotted modifiers mods[0..n) of `in` (op already set). NULL on success,
 * else the reason; *bad is set to the offending modifier when there is one. */
static const char *decode_mods(parser *P, ptx_insn *in, const lex_tok *mods, int n,
                               const lex_tok **bad)
{
    const op_spec *sp = &op_specs[in->op];
    dstate st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < n; i++) {
        const lex_tok *t = &mods[i];
        const kw_entry *k = kw_find(tok_s(P, t) + 1, t->len - 1);
        const char *why = NULL;
        uint16_t a = 0;
        *bad = t;
        if (!k || !k->cls)
            return "unknown modifier";
        switch (k->cls) {
        case KC_TYPE:
            if (st.nt == 2)
                return "too many types";
            st.types[st.nt++] = (uint8_t)k->val;
            break;
        case KC_SPACE: a = A_SPACE; in->space = (uint8_t)k->val; break;
        case KC_CMP: a = A_CMP; in->cmp = (uint8_t)k->val; break;
        case KC_RND: a = A_RND; in->rnd = (uint8_t)k->val; break;
        case KC_COP: a = A_COP; in->cop = (uint8_t)k->val; break;
        case KC_SEM: a = A_SEM; in->sem = (uint8_t)k->val; break;
        case KC_SCOPE: a = A_SCOPE; in->scope = (uint8_t)k->val; break;
        case KC_VEC:
            if (!(sp->allow & A_VEC))
                return "modifier not valid for this opcode";
            if (k->val != 2 && k->val != 4)
                return "bad vector width";
            a = A_VEC;
            in->vec = (uint8_t)k->val;
            break;
        case KC_HINT:
            a = A_HINT;
            if (in->op == OP_PREFETCH) {
                if (in->sub)
                    return "conflicting modifiers";
                in->sub = k->val == W_L1 ? 1 : 2;
            }
            break;
        case KC_FLAG:
            if (!(sp->flags & k->val))
                return "modifier not valid for this opcode";
            if (in->flags & k->val)
                return "duplicate modifier";
            in->flags |= k->val;
            break;
        case KC_WORD: why = apply_word(in, &st, (int)k->val); break;
        }
        if (why)
            return why;
        if (a) {
            if (!(sp->allow & a) && !(a == A_SCOPE && in->op == OP_MEMBAR))
                return "modifier not valid for this opcode";
            if (st.seen & a)
                return "conflicting modifiers";
            st.seen |= a;
        }
    }
    *bad = NULL;
    if (st.nt < sp->nt_min)
        return sp->nt_min == 2 ? "needs two types" : "needs a type";
    if (st.nt > sp->nt_max)
        return sp->nt_max ? "too many types" : "takes no type";
    if (st.nt >= 1 && !(sp->t1 & (1u << st.types[0])))
        return "type not valid for this opcode";
    if (st.nt == 2 && !(sp->t2 & (1u << st.types[1])))
        return "second type not valid for this opcode";
    in->type = st.nt >= 1 ? st.types[0] : PT_NONE;
    in->type2 = st.nt == 2 ? st.types[1] : PT_NONE;
    if (!in->space && (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM ||
                       in->op == OP_RED || in->op == OP_PREFETCH || in->op == OP_LDU))
        in->space = SP_GENERIC;
    const char *why = check_combo(in, &st);
    if (why)
        return why;
    in->cls = (uint8_t)cls_of(in);
    return NULL;
}

/* ---- operands --------------------------------------------------------------------------- */
typedef struct {
    ptx_operand o;
    pconst c;          /* OK_IMM: the constant as written                       */
    uint8_t piped;     /* written after '|'                                     */
    uint32_t line, col;
} rawop;

static const struct {
    const char *name;
    uint8_t sr, vec;
} sreg_tab[] = {
    {"%tid", SR_TID, 1}, {"%ntid", SR_NTID, 1}, {"%ctaid", SR_CTAID, 1},
    {"%nctaid", SR_NCTAID, 1}, {"%laneid", SR_LANEID, 0}, {"%warpid", SR_WARPID, 0},
    {"%nwarpid", SR_NWARPID, 0}, {"%smid", SR_SMID, 0}, {"%nsmid", SR_NSMID, 0},
    {"%gridid", SR_GRIDID, 0}, {"%clock", SR_CLOCK, 0}, {"%clock_hi", SR_CLOCK_HI, 0},
    {"%clock64", SR_CLOCK64, 0}, {"%globaltimer", SR_GLOBALTIMER, 0},
    {"%globaltimer_lo", SR_GLOBALTIMER_LO, 0}, {"%globaltimer_hi", SR_GLOBALTIMER_HI, 0},
    {"%lanemask_eq", SR_LANEMASK_EQ, 0}, {"%lanemask_lt", SR_LANEMASK_LT, 0},
    {"%lanemask_le", SR_LANEMASK_LE, 0}, {"%lanemask_gt", SR_LANEMASK_GT, 0},
    {"%lanemask_ge", SR_LANEMASK_GE, 0}, {"%dynamic_smem_size", SR_DYNAMIC_SMEM_SIZE, 0},
    {"%total_smem_size", SR_TOTAL_SMEM_SIZE, 0},
};

/* Special register named by id (the current token follows it). 0 if not one. */
static int parse_sreg(parser *P, const lex_tok *id, ptx_operand *o)
{
    const char *s = tok_s(P, id);
    size_t n = id->len;
    if (n > 7 && !memcmp(s, "%envreg", 7)) {
        unsigned v = 0;
        for (size_t i = 7; i < n; i++) {
            if (s[i] < '0' || s[i] > '9' || v > 31)
                return 0;
            v = v * 10 + (unsigned)(s[i] - '0');
        }
        if (v > 31)
            return 0;
        o->kind = OK_SREG;
        o->r = SR_ENVREG;
        o->imm = v;
        return 1;
    }
    for (size_t i = 0; i < sizeof sreg_tab / sizeof sreg_tab[0]; i++) {
        if (name_cmp(s, n, sreg_tab[i].name))
            continue;
        o->kind = OK_SREG;
        o->r = sreg_tab[i].sr;
        if (sreg_tab[i].vec) {
            if (P->t.kind != TK_DOT || P->t.len != 2 || tok_s(P, &P->t)[1] < 'x' ||
                tok_s(P, &P->t)[1] > 'z')
                fail_expected(P, "'.x', '.y' or '.z'");
            o->r += (uint32_t)(tok_s(P, &P->t)[1] - 'x');
            next(P);
        }
        return 1;
    }
    return 0;
}

/* Identifier operand: register, variable (+offset), special register, function, '_'. */
static void resolve_id(parser *P, rawop *r)
{
    lex_tok id = P->t;
    const char *s = tok_s(P, &id);
    next(P);
    if (id.len == 1 && s[0] == '_') {
        r->o.kind = OK_SINK;
        return;
    }
    const pbind *b = lookup(P, s, id.len);
    if (b) {
        r->o.kind = b->kind == BK_REG ? OK_REG : OK_SYM;
        r->o.r = b->idx;
        if (b->kind == BK_SYM && P->t.kind == TK_PLUS) {
            next(P);
            r->o.imm = expect_uint(P, "an offset", UINT64_MAX);
        }
        return;
    }
    if (s[0] == '%') {
        if (parse_sreg(P, &id, &r->o))
            return;
        fail_at(P, id.line, id.col, "undefined register '%.*s'", (int)id.len, s);
    }
    if (!name_cmp(s, id.len, "WARP_SZ")) {
        r->o.kind = OK_SREG;
        r->o.r = SR_WARPSZ;
        return;
    }
    uint32_t nm = name_find(P, s, id.len);
    if (nm != NIL && P->names[nm].func >= 0) {
        r->o.kind = OK_FUNC;
        r->o.r = (uint32_t)P->names[nm].func;
        return;
    }
    fail_at(P, id.line, id.col, "undefined symbol '%.*s'", (int)id.len, s);
}

static _Noreturn void fail_undefined(parser *P, const lex_tok *id)
{
    const char *s = tok_s(P, id);
    fail_at(P, id->line, id->col, "undefined %s '%.*s'", s[0] == '%' ? "register" : "symbol",
            (int)id->len, s);
}

/* [reg], [reg+imm], [reg+-imm], [var], [var+imm], [imm] */
static void parse_address(parser *P, rawop *r)
{
    next(P);
    r->o.kind = OK_ADDR;
    if (P->t.kind == TK_ID) {
        lex_tok id = P->t;
        const pbind *b = lookup(P, tok_s(P, &id), id.len);
        if (!b)
            fail_undefined(P, &id);
        if (b->kind == BK_REG && CURF(P)->regs[b->idx].type == PT_PRED)
            FAIL(P, "predicate register used as an address");
        r->o.base = b->kind == BK_REG ? OK_REG : OK_SYM;
        r->o.r = b->idx;
        next(P);
    } else if (P->t.kind == TK_INT) {
        r->o.base = OK_NONE;
        r->o.imm = P->t.u;
        next(P);
    } else {
        fail_expected(P, "a register, a variable or an address");
    }
    if (P->t.kind == TK_PLUS || P->t.kind == TK_MINUS) {
        int neg = P->t.kind == TK_MINUS;
        next(P);
        if (P->t.kind == TK_MINUS) {
            neg = !neg;
            next(P);
        }
        if (P->t.kind != TK_INT)
            fail_expected(P, "an offset");
        r->o.imm += neg ? 0 - P->t.u : P->t.u;
        next(P);
    }
    expect(P, TK_RBRACK, "']'");
}

/* { reg|_ , ... } */
static void parse_vector(parser *P, rawop *r)
{
    ptx_module *m = P->m;
    next(P);
    uint32_t start = (uint32_t)m->pool_len, n = 0;
    for (;;) {
        if (P->t.kind != TK_ID)
            fail_expected(P, "a register");
        lex_tok id = P->t;
        const char *s = tok_s(P, &id);
        uint32_t v = NIL;
        if (!(id.len == 1 && s[0] == '_')) {
            const pbind *b = lookup(P, s, id.len);
            if (!b)
                fail_undefined(P, &id);
            if (b->kind != BK_REG)
                fail_expected(P, "a register");
            v = b->idx;
        }
        if (n == MAX_VEC)
            FAIL(P, "too many elements in a vector operand");
        if (m->pool_len >= UINT32_MAX - 1)
            fail_oom(P);
        GROW(P, m->pool, m->pool_cap, m->pool_len + 1);
        m->pool[m->pool_len++] = v;
        n++;
        next(P);
        if (P->t.kind == TK_COMMA) {
            next(P);
            continue;
        }
        expect(P, TK_RBRACE, "',' or '}'");
        break;
    }
    r->o.kind = OK_VEC;
    r->o.n = (uint8_t)n;
    r->o.r = start;
}

static void parse_operand(parser *P, rawop *r, int op)
{
    memset(r, 0, sizeof *r);
    r->line = P->t.line;
    r->col = P->t.col;
    switch (P->t.kind) {
    case TK_BANG:
        next(P);
        if (P->t.kind != TK_ID)
            fail_expected(P, "a predicate register");
        resolve_id(P, r);
        if (r->o.kind != OK_REG)
            fail_at(P, r->line, r->col, "'!' needs a predicate register");
        r->o.neg = 1;
        return;
    case TK_MINUS:
    case TK_INT:
    case TK_FLT:
    case TK_F32:
    case TK_F64:
        read_const(P, &r->c);
        r->o.kind = OK_IMM;
        r->o.imm = r->c.u;
        return;
    case TK_LBRACK: parse_address(P, r); return;
    case TK_LBRACE: parse_vector(P, r); return;
    case TK_ID:
        if (op == OP_BRA) {
            r->o.kind = OK_LABEL;
            r->o.r = tok_intern(P, &P->t);
            next(P);
            return;
        }
        resolve_id(P, r);
        return;
    default: fail_expected(P, "an operand");
    }
}

/* ---- operand roles ------------------------------------------------------------------------ */
enum { RK_NONE, RK_D, RK_S, RK_A, RK_L, RK_DV, RK_SV, RK_IMM, RK_PDO };
typedef struct {
    uint8_t k, t, neg;   /* kind, ptx_type (width, immediate encoding), '!' allowed */
} role;

typedef struct {
    parser *P;
    ptx_insn *in;
    const rawop *raw;    /* first operand as written (for operand numbers)       */
    const char *name;    /* opcode with modifiers, for messages                 */
} opctx;

static _Noreturn void op_fail(const opctx *c, const rawop *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void op_fail(const opctx *c, const rawop *r, const char *fmt, ...)
{
    char why[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fail_at(c->P, r->line, r->col, "operand %d of '%s': %s", (int)(r - c->raw) + 1, c->name, why);
}

static const char *reg_name(const opctx *c, uint32_t slot)
{
    return c->P->m->strtab + CURF(c->P)->regs[slot].name;
}

static void check_reg(const opctx *c, const rawop *r, uint32_t slot, int t)
{
    int rt = CURF(c->P)->regs[slot].type;
    if (t == PT_PRED) {
        if (rt != PT_PRED)
            op_fail(c, r, "'%s' is not a predicate register", reg_name(c, slot));
    } else {
        if (rt == PT_PRED)
            op_fail(c, r, "predicate '%s' used as a data operand", reg_name(c, slot));
        if (t && tsize(rt) < tsize(t))
            op_fail(c, r, "register '%s' (.%s) is narrower than the .%s operand",
                    reg_name(c, slot), ptx_type_name[rt], ptx_type_name[t]);
    }
}

static void check_vec(const opctx *c, const rawop *r, int dst, int t)
{
    const ptx_insn *in = c->in;
    const uint32_t *v = c->P->m->pool + r->o.r;
    unsigned n = r->o.n, es;
    if (in->op == OP_MOV) {
        if (n != 2 && n != 4)
            op_fail(c, r, "a packing mov takes 2 or 4 registers");
        es = tsize(t) / n;
        if (t == PT_PRED || !es || es * n != tsize(t))
            op_fail(c, r, "cannot split .%s into %u parts", ptx_type_name[t], n);
        int other = dst ? 1 : 0;
        if (in->ops[other].kind == OK_VEC)
            op_fail(c, r, "only one side of a mov can be a vector");
    } else {
        if (n != in->vec)
            op_fail(c, r, "vector operand has %u elements, expected %u", n, in->vec);
        es = tsize(t);
    }
    for (unsigned i = 0; i < n; i++) {
        if (v[i] == NIL) {
            if (!dst)
                op_fail(c, r, "'_' cannot be a source");
            continue;
        }
        int rt = CURF(c->P)->regs[v[i]].type;
        if (rt == PT_PRED)
            op_fail(c, r, "predicate '%s' in a vector operand", reg_name(c, v[i]));
        if (tsize(rt) < es)
            op_fail(c, r, "register '%s' (.%s) is narrower than its %u-byte element",
                    reg_name(c, v[i]), ptx_type_name[rt], es);
    }
}

static void fin_op(const opctx *c, int i, const rawop *r, role rl)
{
    ptx_insn *in = c->in;
    ptx_operand *o = &in->ops[i];
    if (!r) {
        memset(o, 0, sizeof *o);
        return;
    }
    int k = r->o.kind;
    *o = r->o;
    switch (rl.k) {
    case RK_DV:
    case RK_SV:
        if (k == OK_VEC) {
            *o = r->o; /* check_vec looks at the other side of a mov */
            check_vec(c, r, rl.k == RK_DV, rl.t);
            return;
        }
        if (in->vec > 1)
            op_fail(c, r, "expected a vector of %u registers", in->vec);
        rl.k = rl.k == RK_DV ? RK_D : RK_S;
        fin_op(c, i, r, rl);
        return;
    case RK_PDO:
        rl.t = PT_PRED;
        /* fall through */
    case RK_D:
        if (k == OK_SINK)
            return;
        if (k != OK_REG || r->o.neg)
            op_fail(c, r, "expected a destination register");
        check_reg(c, r, r->o.r, rl.t);
        return;
    case RK_S:
        switch (k) {
        case OK_REG:
            if (r->o.neg && !rl.neg)
                op_fail(c, r, "'!' is not allowed here");
            check_reg(c, r, r->o.r, rl.t);
            return;
        case OK_IMM: {
            if (!rl.t && r->c.lit != TK_INT)
                op_fail(c, r, "expected an integer constant");
            const char *why = const_bits(&r->c, rl.t ? rl.t : PT_U64, &o->imm);
            if (why)
                op_fail(c, r, "%s", why);
            return;
        }
        case OK_SREG:
            if (rl.t == PT_PRED || type_is_f(rl.t))
                op_fail(c, r, "special register used as a .%s operand", ptx_type_name[rl.t]);
            return;
        case OK_SYM:
            if (rl.t == PT_PRED || type_is_f(rl.t) || (rl.t && tsize(rl.t) < 4))
                op_fail(c, r, "an address needs a 32- or 64-bit integer operand");
            return;
        case OK_FUNC:
            if (in->op != OP_MOV || (rl.t && tsize(rl.t) < 4) || type_is_f(rl.t))
                op_fail(c, r, "a function address can only be moved into a 32/64-bit register");
            return;
        case OK_SINK: op_fail(c, r, "'_' cannot be a source");
        default: op_fail(c, r, "expected a register or a constant");
        }
    case RK_A:
        if (k != OK_ADDR)
            op_fail(c, r, "expected an address in [ ]");
        return;
    case RK_L:
        if (k != OK_LABEL)
            op_fail(c, r, "expected a label");
        return;
    case RK_IMM:
        if (k != OK_IMM || r->c.lit != TK_INT)
            op_fail(c, r, "expected an integer constant");
        return;
    default: op_fail(c, r, "unexpected operand");
    }
}

static int wide_type(int t)
{
    switch (t) {
    case PT_U16: return PT_U32;
    case PT_S16: return PT_S32;
    case PT_U32: return PT_U64;
    case PT_S32: return PT_S64;
    default: return t;
    }
}

/* Places the operands as written into the fixed slots of ir.h and checks them. */
static void build_ops(parser *P, ptx_insn *in, rawop *raw, int nraw, const char *name)
{
    opctx c = {P, in, raw, name};
    role rl[PTX_MAX_OPS];
    const rawop *slot[PTX_MAX_OPS];
    int n = 0, opt = 0, t = in->type, t2 = in->type2;
    int piped = nraw > 1 && raw[1].piped, custom = 0;
    memset(rl, 0, sizeof rl);
    memset(slot, 0, sizeof slot);
#define ARG(k_, t_) (rl[n].k = (uint8_t)(k_), rl[n].t = (uint8_t)(t_), rl[n].neg = 0, n++)
#define ARGN(t_) (rl[n].k = RK_S, rl[n].t = (uint8_t)(t_), rl[n].neg = 1, n++)
    for (int i = 0; i < nraw; i++)
        if (raw[i].piped && !(i == 1 && (in->op == OP_SETP || in->op == OP_SHFL ||
                                         in->op == OP_MATCH)))
            fail_at(P, raw[i].line, raw[i].col, "unexpected '|' in '%s'", name);

    switch (in->op) {
    case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_BREV: case OP_RCP:
    case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2:
    case OP_TANH:
        ARG(RK_D, t); ARG(RK_S, t);
        break;
    case OP_POPC: case OP_CLZ: case OP_BFIND:
        ARG(RK_D, PT_U32); ARG(RK_S, t);
        break;
    case OP_ADD: case OP_SUB: case OP_ADDC: case OP_SUBC: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_COPYSIGN: case OP_AND: case OP_OR: case OP_XOR:
    case OP_MUL24:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, t);
        break;
    case OP_MUL:
        ARG(RK_D, in->sub == MUL_WIDE ? wide_type(t) : t); ARG(RK_S, t); ARG(RK_S, t);
        break;
    case OP_SHL: case OP_SHR:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, PT_U32);
        break;
    case OP_MAD:
        ARG(RK_D, in->sub == MUL_WIDE ? wide_type(t) : t); ARG(RK_S, t); ARG(RK_S, t);
        ARG(RK_S, in->sub == MUL_WIDE ? wide_type(t) : t);
        break;
    case OP_MADC: case OP_MAD24: case OP_SAD: case OP_FMA:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, t); ARG(RK_S, t);
        break;
    case OP_SELP:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, t); ARG(RK_S, PT_PRED);
        break;
    case OP_SLCT:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, t); ARG(RK_S, t2);
        break;
    case OP_TESTP:
        ARG(RK_D, PT_PRED); ARG(RK_S, t);
        break;
    case OP_BFE:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, PT_U32); ARG(RK_S, PT_U32);
        break;
    case OP_BFI:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, t); ARG(RK_S, PT_U32); ARG(RK_S, PT_U32);
        break;
    case OP_LOP3:
        ARG(RK_D, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32);
        ARG(RK_IMM, PT_B32);
        break;
    case OP_SHF:
        ARG(RK_D, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_U32);
        break;
    case OP_PRMT:
        ARG(RK_D, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32);
        break;
    case OP_FNS:
        ARG(RK_D, PT_B32); ARG(RK_S, PT_B32); ARG(RK_S, PT_U32); ARG(RK_S, PT_S32);
        break;
    case OP_DP4A: case OP_DP2A: {
        int dt = type_is_s(t) || type_is_s(t2) ? PT_S32 : PT_U32;
        ARG(RK_D, dt); ARG(RK_S, t); ARG(RK_S, t2); ARG(RK_S, dt);
        break;
    }
    case OP_CVT:
        ARG(RK_D, t);
        if (t == PT_F16X2 || t == PT_BF16X2) {
            ARG(RK_S, PT_F32); ARG(RK_S, PT_F32);
        } else {
            ARG(RK_S, t2);
        }
        break;
    case OP_CVTA:
        ARG(RK_D, t); ARG(RK_S, t);
        break;
    case OP_ISSPACEP:
        ARG(RK_D, PT_PRED); ARG(RK_S, PT_NONE);
        break;
    case OP_MOV:
        ARG(RK_DV, t); ARG(RK_SV, t);
        break;
    case OP_LD: case OP_LDU:
        ARG(RK_DV, t); ARG(RK_A, 0);
        break;
    case OP_ST:
        ARG(RK_A, 0); ARG(RK_SV, t);
        break;
    case OP_PREFETCH: case OP_PREFETCHU:
        ARG(RK_A, 0);
        break;
    case OP_ATOM:
        ARG(RK_D, t); ARG(RK_A, 0); ARG(RK_S, t);
        if (in->sub == AOP_CAS)
            ARG(RK_S, t);
        break;
    case OP_RED:
        ARG(RK_A, 0); ARG(RK_S, t);
        break;
    case OP_ACTIVEMASK:
        ARG(RK_D, PT_B32);
        break;
    case OP_NANOSLEEP:
        ARG(RK_S, PT_U32);
        break;
    case OP_PMEVENT:
        ARG(RK_IMM, PT_NONE);
        break;
    case OP_BRA:
        ARG(RK_L, 0);
        break;
    case OP_REDUX:
        ARG(RK_D, t); ARG(RK_S, t); ARG(RK_S, PT_B32);
        break;
    case OP_VOTE:
        ARG(RK_D, in->sub == VOTE_BALLOT ? PT_B32 : PT_PRED); ARGN(PT_PRED);
        if (in->flags & MF_SYNC)
            ARG(RK_S, PT_B32);
        break;
    case OP_SET:
        ARG(RK_D, t); ARG(RK_S, t2); ARG(RK_S, t2); ARGN(PT_PRED);
        opt = 1;
        if ((nraw == 4) != !!in->sub)
            fail_at(P, in->line, in->col, "'%s': %s", name,
                    in->sub ? "a boolean operation needs a predicate operand c"
                            : "predicate operand c needs .and, .or or .xor");
        break;
    case OP_SETP:
        custom = 1;
        ARG(RK_D, PT_PRED); ARG(RK_PDO, 0); ARG(RK_S, t); ARG(RK_S, t); ARGN(PT_PRED);
        slot[0] = &raw[0];
        slot[1] = piped ? &raw[1] : NULL;
        {
            int rest = nraw - 1 - piped;
            if (nraw < 1 || rest < 2 || rest > 3)
                fail_at(P, in->line, in->col,
                        "wrong number of operands for '%s' (expected p[|q], a, b[, c])", name);
            if ((rest == 3) != !!in->sub)
                fail_at(P, in->line, in->col, "'%s': %s", name,
                        in->sub ? "a boolean operation needs a predicate operand c"
                                : "predicate operand c needs .and, .or or .xor");
            for (int i = 0; i < rest; i++)
                slot[2 + i] = &raw[1 + piped + i];
            n = 2 + rest;
        }
        break;
    case OP_SHFL:
        custom = 1;
        ARG(RK_D, PT_B32); ARG(RK_PDO, 0); ARG(RK_S, PT_B32); ARG(RK_S, PT_B32);
        ARG(RK_S, PT_B32);
        if (in->flags & MF_SYNC)
            ARG(RK_S, PT_B32);
        slot[0] = nraw ? &raw[0] : NULL;
        slot[1] = piped ? &raw[1] : NULL;
        if (nraw - piped != n - 1)
            fail_at(P, in->line, in->col,
                    "wrong number of operands for '%s' (expected d[|p], a, b, c%s)", name,
                    in->flags & MF_SYNC ? ", membermask" : "");
        for (int i = 2; i < n; i++)
            slot[i] = &raw[i - 1 + piped];
        break;
    case OP_MATCH:
        custom = 1;
        ARG(RK_D, PT_B32); ARG(RK_PDO, 0); ARG(RK_S, t); ARG(RK_S, PT_B32);
        if (piped && in->sub != MATCH_ALL)
            fail_at(P, raw[1].line, raw[1].col, "unexpected '|' in '%s'", name);
        if (nraw - piped != 3)
            fail_at(P, in->line, in->col,
                    "wrong number of operands for '%s' (expected d%s, a, membermask)", name,
                    in->sub == MATCH_ALL ? "[|p]" : "");
        slot[0] = &raw[0];
        slot[1] = piped ? &raw[1] : NULL;
        slot[2] = &raw[1 + piped];
        slot[3] = &raw[2 + piped];
        break;
    case OP_BAR:
    case OP_BARRIER:
        switch (in->sub) {
        case BAR_SYNC: ARG(RK_S, PT_U32); ARG(RK_S, PT_U32); opt = 1; break;
        case BAR_ARRIVE: ARG(RK_S, PT_U32); ARG(RK_S, PT_U32); break;
        case BAR_WARP_SYNC: ARG(RK_S, PT_B32); break;
        default:
            custom = 1;
            ARG(RK_D, in->sub == BAR_RED_POPC ? PT_U32 : PT_PRED); ARG(RK_S, PT_U32);
            ARG(RK_S, PT_U32); ARGN(PT_PRED);
            if (nraw != 3 && nraw != 4)
                fail_at(P, in->line, in->col,
                        "wrong number of operands for '%s' (expected d, a[, b], c)", name);
            slot[0] = &raw[0];
            slot[1] = &raw[1];
            slot[2] = nraw == 4 ? &raw[2] : NULL;
            slot[3] = &raw[nraw - 1];
            break;
        }
        break;
    default: /* no operands: ret, exit, trap, brkpt, nop, membar, fence */
        break;
    }
#undef ARG
#undef ARGN
    if (!custom) {
        if (nraw < n - opt || nraw > n) {
            if (opt)
                fail_at(P, in->line, in->col,
                        "wrong number of operands for '%s' (expected %d or %d, found %d)", name,
                        n - opt, n, nraw);
            fail_at(P, in->line, in->col,
                    "wrong number of operands for '%s' (expected %d, found %d)", name, n, nraw);
        }
        for (int i = 0; i < nraw; i++)
            slot[i] = &raw[i];
        n = nraw;
    }
    for (int i = 0; i < n; i++)
        fin_op(&c, i, slot[i], rl[i]);
    in->nops = (uint8_t)n;
}

/* ---- calls ---------------------------------------------------------------------------------- */
/* ( param {, param} ) into an OK_PARAMS operand. */
static void parse_param_list(parser *P, ptx_operand *o)
{
    ptx_module *m = P->m;
    o->kind = OK_PARAMS;
    o->r = (uint32_t)m->pool_len;
    o->n = 0;
    expect(P, TK_LPAREN, "'('");
    if (P->t.kind == TK_RPAREN) {
        next(P);
        return;
    }
    for (;;) {
        const pbind *b = P->t.kind == TK_ID ? lookup(P, tok_s(P, &P->t), P->t.len) : NULL;
        if (!b || b->kind != BK_SYM || !m->syms[b->idx].is_param)
            fail_expected(P, "a .param variable");
        if (o->n == 255)
            FAIL(P, "too many call arguments");
        if (m->pool_len >= UINT32_MAX - 1)
            fail_oom(P);
        GROW(P, m->pool, m->pool_cap, m->pool_len + 1);
        m->pool[m->pool_len++] = b->idx;
        o->n++;
        next(P);
        if (P->t.kind == TK_COMMA) {
            next(P);
            continue;
        }
        expect(P, TK_RPAREN, "',' or ')'");
        return;
    }
}

/* call[.uni] [(rets),] target [, (args)] [, prototype] ; */
static void parse_call(parser *P, ptx_insn *in)
{
    ptx_module *m = P->m;
    in->ops[0].kind = OK_PARAMS;
    in->ops[0].r = (uint32_t)m->pool_len;
    if (P->t.kind == TK_LPAREN) {
        parse_param_list(P, &in->ops[0]);
        expect(P, TK_COMMA, "','");
    }
    if (P->t.kind != TK_ID)
        fail_expected(P, "a function name");
    lex_tok id = P->t;
    const pbind *b = lookup(P, tok_s(P, &id), id.len);
    int32_t callee = -1;
    if (b && b->kind == BK_REG) {
        int rt = CURF(P)->regs[b->idx].type;
        if (rt == PT_PRED || tsize(rt) < 4)
            FAIL(P, "indirect call target '%.*s' must be a 32- or 64-bit register", (int)id.len,
                 tok_s(P, &id));
        in->ops[1].kind = OK_REG;
        in->ops[1].r = b->idx;
    } else {
        uint32_t nm = b ? NIL : name_find(P, tok_s(P, &id), id.len);
        if (nm == NIL || P->names[nm].func < 0)
            FAIL(P, "undefined function '%.*s'", (int)id.len, tok_s(P, &id));
        callee = P->names[nm].func;
        in->ops[1].kind = OK_FUNC;
        in->ops[1].r = (uint32_t)callee;
    }
    next(P);
    in->ops[2].kind = OK_PARAMS;
    in->ops[2].r = (uint32_t)m->pool_len;
    int has_proto = 0;
    if (P->t.kind == TK_COMMA) {
        next(P);
        if (P->t.kind == TK_LPAREN) {
            parse_param_list(P, &in->ops[2]);
            if (P->t.kind == TK_COMMA) {
                next(P);
                has_proto = 1;
            }
        } else {
            has_proto = 1;
        }
    }
    if (has_proto) {
        uint32_t nm = P->t.kind == TK_ID ? name_find(P, tok_s(P, &P->t), P->t.len) : NIL;
        if (P->t.kind != TK_ID)
            fail_expected(P, "a call prototype");
        if (nm == NIL || P->names[nm].proto_gen != P->gen)
            FAIL(P, "undefined call prototype '%.*s'", (int)P->t.len, tok_s(P, &P->t));
        next(P);
    } else if (callee < 0) {
        fail_at(P, id.line, id.col, "an indirect call needs a prototype");
    }
    if (callee >= 0) {
        const ptx_func *f = &m->funcs[callee];
        const char *fname = m->strtab + f->name;
        if (f->is_entry)
            fail_at(P, id.line, id.col, "cannot call kernel '%s'", fname);
        if (in->ops[0].n != f->n_rets)
            fail_at(P, id.line, id.col, "call to '%s' takes %u return value(s), found %u", fname,
                    f->n_rets, in->ops[0].n);
        if (in->ops[2].n != f->n_params)
            fail_at(P, id.line, id.col, "call to '%s' takes %u argument(s), found %u", fname,
                    f->n_params, in->ops[2].n);
        for (unsigned i = 0; i < f->n_rets + f->n_params; i++) {
            int ret = i < f->n_rets;
            unsigned k = ret ? i : i - f->n_rets;
            uint32_t formal = ret ? f->rets[k] : f->params[k];
            uint32_t actual = m->pool[(ret ? in->ops[0].r : in->ops[2].r) + k];
            if (m->syms[formal].size != m->syms[actual].size)
                fail_at(P, id.line, id.col,
                        "%s %u of the call to '%s' has %llu bytes, the parameter %llu",
                        ret ? "return value" : "argument", k + 1, fname,
                        (unsigned long long)m->syms[actual].size,
                        (unsigned long long)m->syms[formal].size);
        }
    }
    in->nops = 3;
}

/* ---- instructions ----------------------------------------------------------------------- */
/* [@[!]%p] opcode{.mod} operands ;  opcode is NULL when the current token is '@'. */
static void parse_insn(parser *P, const lex_tok *opcode)
{
    ptx_insn in;
    lex_tok op_tok;
    memset(&in, 0, sizeof in);
    in.guard = -1;
    in.vec = 1;
    if (!opcode) {
        next(P);
        if (P->t.kind == TK_BANG) {
            in.guard_neg = 1;
            next(P);
        }
        if (P->t.kind != TK_ID)
            fail_expected(P, "a predicate register");
        const pbind *b = lookup(P, tok_s(P, &P->t), P->t.len);
        if (!b)
            fail_undefined(P, &P->t);
        if (b->kind != BK_REG || CURF(P)->regs[b->idx].type != PT_PRED)
            FAIL(P, "guard '%.*s' is not a predicate register", (int)P->t.len, tok_s(P, &P->t));
        in.guard = (int32_t)b->idx;
        next(P);
        if (P->t.kind != TK_ID)
            fail_expected(P, "an instruction");
        op_tok = P->t;
        next(P);
    } else {
        op_tok = *opcode;
    }
    /* textures and surfaces: a named refusal (before the modifiers, whose .1d/.2d the
     * lexer would take for malformed numbers) */
    static const char *const texsurf[] = {"tex", "tld4", "txq", "suld", "sust", "sured", "suq",
                                          "istypep", NULL};
    for (int i = 0; texsurf[i]; i++)
        if (op_tok.len == strlen(texsurf[i]) && !memcmp(tok_s(P, &op_tok), texsurf[i], op_tok.len))
            fail_at(P, op_tok.line, op_tok.col, "kernel '%s': instruction '%s': textures and surfaces "
                    "are not supported by warpsim", P->fi >= 0 ? P->m->strtab + CURF(P)->name : "?",
                    texsurf[i]);

    lex_tok mods[MAX_MODS];
    int nm = 0;
    uint32_t end = op_tok.off + op_tok.len;
    while (P->t.kind == TK_DOT) {
        if (nm == MAX_MODS)
            FAIL(P, "too many modifiers");
        mods[nm++] = P->t;
        end = P->t.off + P->t.len;
        next(P);
    }
    char name[128];
    uint32_t span = end - op_tok.off;
    snprintf(name, sizeof name, "%.*s%s", (int)(span > 100 ? 100 : span), tok_s(P, &op_tok),
             span > 100 ? "..." : "");
    int op = op_find(tok_s(P, &op_tok), op_tok.len);
    if (op < 0)
        fail_at(P, op_tok.line, op_tok.col, "unknown instruction '%s'", name);
    in.op = (uint16_t)op;
    in.line = op_tok.line;
    in.col = op_tok.col;
    const lex_tok *bad;
    const char *why = decode_mods(P, &in, mods, nm, &bad);
    if (why && bad)
        fail_at(P, op_tok.line, op_tok.col, "unknown instruction '%s' (%s '%.*s')", name, why,
                (int)(bad->len > 40 ? 40 : bad->len), tok_s(P, bad));
    if (why)
        fail_at(P, op_tok.line, op_tok.col, "unknown instruction '%s' (%s)", name, why);

    rawop raw[MAX_RAW];
    if (op == OP_CALL) {
        parse_call(P, &in);
        expect(P, TK_SEMI, "';'");
    } else {
        int nraw = 0;
        if (P->t.kind != TK_SEMI) {
            for (;;) {
                if (nraw == MAX_RAW)
                    FAIL(P, "too many operands");
                parse_operand(P, &raw[nraw++], op);
                if (P->t.kind == TK_PIPE) {
                    next(P);
                    if (nraw == MAX_RAW)
                        FAIL(P, "too many operands");
                    parse_operand(P, &raw[nraw], op);
                    raw[nraw++].piped = 1;
                }
                if (P->t.kind != TK_COMMA)
                    break;
                next(P);
            }
        }
        expect(P, TK_SEMI, "';'");
        build_ops(P, &in, raw, nraw, name);
    }
    ptx_insn *dst = new_insn(P);
    *dst = in;
    if (op == OP_BRA)
        add_fixup(P, CURF(P)->n_insns - 1, 0, in.ops[0].r, raw[0].line, raw[0].col);
}

/* ---- module -------------------------------------------------------------------------------- */
static void parse_module(parser *P)
{
    next(P);
    while (P->t.kind != TK_EOF) {
        if (P->t.kind == TK_SEMI) {
            next(P);
            continue;
        }
        const kw_entry *k = dot_kw(P);
        if (!k) {
            if (P->t.kind == TK_DOT)
                FAIL(P, "unknown directive '%.*s'", (int)(P->t.len > 64 ? 64 : P->t.len),
                     tok_s(P, &P->t));
            fail_expected(P, "a directive");
        }
        int visible = 0, is_extern = 0;
        uint32_t line = P->t.line, col = P->t.col;
        while (k && (k->dir == D_VISIBLE || k->dir == D_EXTERN || k->dir == D_WEAK ||
                     k->dir == D_COMMON)) {
            visible = 1;
            is_extern |= k->dir == D_EXTERN;
            next(P);
            k = dot_kw(P);
        }
        if (visible && !(k && (k->dir == D_ENTRY || k->dir == D_FUNC || k->cls == KC_SPACE)))
            fail_expected(P, "'.entry', '.func' or a variable declaration");
        if (!k)
            fail_expected(P, "a directive");
        switch (k->dir) {
        case D_VERSION: parse_version(P); continue;
        case D_TARGET: parse_target(P); continue;
        case D_ADDRESS_SIZE:
            next(P);
            P->m->address_size = (uint32_t)expect_uint(P, "an address size", 64);
            if (P->m->address_size != 32 && P->m->address_size != 64)
                fail_at(P, line, col, ".address_size must be 32 or 64");
            continue;
        case D_FILE: parse_file(P); continue;
        case D_LOC: parse_loc(P); continue;
        case D_SECTION: parse_section(P); continue;
        case D_PRAGMA: parse_pragma(P); continue;
        case D_POL: parse_pol(P); continue;
        case D_ENTRY:
        case D_FUNC: parse_func(P, k->dir == D_ENTRY, visible); continue;
        default: break;
        }
        if (k->cls == KC_SPACE) {
            if (k->val == SP_LOCAL)
                FAIL(P, "module-scope .local variables are not supported");
            if (k->val == SP_PARAM)
                FAIL(P, ".param variables must be declared in a function");
            parse_var_decl(P, (int)k->val, is_extern);
            continue;
        }
        FAIL(P, "unknown directive '%.*s'", (int)(P->t.len > 64 ? 64 : P->t.len),
             tok_s(P, &P->t));
    }
}

/* ---- layout ---------------------------------------------------------------------------------- */
static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static void layout(parser *P)
{
    ptx_module *m = P->m;
    const uint64_t limit = 1ull << 42;
    uint64_t sh = 0;
    for (uint32_t i = 0; i < m->n_syms; i++) {
        ptx_symbol *s = &m->syms[i];
        if (s->func >= 0 || s->space != SP_SHARED || s->is_extern)
            continue;
        sh = align_up(sh, s->align);
        s->addr = sh;
        sh += s->size;
        if (sh > limit)
            fail_at(P, s->line, s->col, "shared memory too large");
    }
    m->shared_static = sh;

    /* per function: frame, kernel parameter buffer and shared cursors */
    uint64_t *cur = calloc((size_t)m->n_funcs * 3 + 1, sizeof *cur);
    uint8_t *kparam = calloc((size_t)m->n_syms + 1, 1);
    if (!cur || !kparam) {
        free(cur);
        free(kparam);
        fail_oom(P);
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        cur[3 * i + 2] = sh;
        if (m->funcs[i].is_entry)
            for (uint32_t k = 0; k < m->funcs[i].n_params; k++)
                kparam[m->funcs[i].params[k]] = 1;
    }
    for (uint32_t i = 0; i < m->n_syms; i++) {
        ptx_symbol *s = &m->syms[i];
        if (s->func < 0)
            continue;
        ptx_func *f = &m->funcs[s->func];
        uint64_t *c = &cur[3 * (size_t)s->func];
        if (s->space == SP_SHARED) {
            if (s->is_extern) {
                s->addr = 0;
                continue;
            }
            c = &c[2];
        } else if (kparam[i]) {
            c = &c[1];
        } else if (s->space == SP_LOCAL || s->space == SP_PARAM) {
            if (s->align > f->frame_align)
                f->frame_align = s->align;
        } else {
            continue;
        }
        *c = align_up(*c, s->align);
        s->addr = *c;
        *c += s->size;
        if (*c > limit) {
            free(cur);
            free(kparam);
            fail_at(P, s->line, s->col, "variables of '%s' too large", m->strtab + f->name);
        }
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        ptx_func *f = &m->funcs[i];
        uint64_t frame = align_up(cur[3 * i], f->frame_align);
        if (frame > UINT32_MAX || cur[3 * i + 1] > UINT32_MAX) {
            free(cur);
            free(kparam);
            fail_at(P, f->line, f->col, "frame of '%s' too large", m->strtab + f->name);
        }
        f->frame_size = (uint32_t)frame;
        f->param_size = (uint32_t)cur[3 * i + 1];
        f->shared_static = cur[3 * i + 2] - sh;
    }
    free(cur);
    free(kparam);
}

/* ---- entry point ---------------------------------------------------------------------------- */
static void parser_free(parser *P)
{
    for (size_t i = 0; i < P->n_regs; i++)
        free(P->regs[i].name);
    free(P->regs);
    free(P->names);
    free(P->htab);
    free(P->binds);
    free(P->fix);
    free(P);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *file, ptx_diag *d)
{
    ptx_diag dummy;
    if (!d)
        d = &dummy;
    memset(d, 0, sizeof *d);
    if (!text && len) {
        snprintf(d->msg, sizeof d->msg, "no input");
        return NULL;
    }
    if (len > UINT32_MAX - 1) {
        snprintf(d->msg, sizeof d->msg, "input too large");
        return NULL;
    }
    parser *P = calloc(1, sizeof *P);
    ptx_module *m = calloc(1, sizeof *m);
    if (!P || !m) {
        free(P);
        free(m);
        snprintf(d->msg, sizeof d->msg, "out of memory");
        return NULL;
    }
    P->m = m;
    P->d = d;
    P->fi = -1;
    lex_init(&P->lx, text ? text : "", len);
    if (setjmp(P->jb)) {
        ptx_module_free(P->m);
        parser_free(P);
        return NULL;
    }
    P->hcap = 1024;
    P->htab = calloc(P->hcap, sizeof *P->htab);
    if (!P->htab)
        fail_oom(P);
    m->file = xstrndup(P, file ? file : "<input>", strlen(file ? file : "<input>"));
    str_add(P, "", 0);
    parse_module(P);
    resolve_regs(P);
    layout(P);
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (!m->funcs[i].is_decl && ptx_cfg_build(m, &m->funcs[i]))
            fail_at(P, m->funcs[i].line, m->funcs[i].col, "out of memory building the CFG of '%s'",
                    m->strtab + m->funcs[i].name);
    parser_free(P);
    return m;
}
