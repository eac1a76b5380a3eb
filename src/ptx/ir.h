/* ir.h - PTX decoded once into a compact IR.
 *
 * The parser (parse.c) turns PTX text into a ptx_module; nothing downstream ever
 * looks at PTX text again. Every instruction has its opcode, types, modifiers and
 * operands resolved: registers are dense slot numbers per function, labels are
 * instruction indices, symbols are indices into the module's symbol table.
 * The functional emulator (src/func) binds a handler to each instruction once at
 * load time; the timing model (src/core) reads the static class of each
 * instruction (ptx_op_info) and the analyses of cfg.h.
 */
#ifndef WS_PTX_IR_H
#define WS_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- data types ------------------------------------------------------------------ */
#define PTX_TYPES(X)                                                                   \
    X(NONE, "", 0) X(PRED, "pred", 1)                                                  \
    X(B8, "b8", 1) X(B16, "b16", 2) X(B32, "b32", 4) X(B64, "b64", 8) X(B128, "b128", 16) \
    X(U8, "u8", 1) X(U16, "u16", 2) X(U32, "u32", 4) X(U64, "u64", 8)                  \
    X(S8, "s8", 1) X(S16, "s16", 2) X(S32, "s32", 4) X(S64, "s64", 8)                  \
    X(F16, "f16", 2) X(F16X2, "f16x2", 4) X(BF16, "bf16", 2) X(BF16X2, "bf16x2", 4)    \
    X(F32, "f32", 4) X(F64, "f64", 8)

typedef enum {
#define X(e, s, n) PT_##e,
    PTX_TYPES(X)
#undef X
    PT__COUNT
} ptx_type;

extern const char *const ptx_type_name[PT__COUNT];
extern const uint8_t ptx_type_size[PT__COUNT]; /* bytes; PRED counts as 1 */
static inline int ptx_type_is_signed(ptx_type t) { return t >= PT_S8 && t <= PT_S64; }
static inline int ptx_type_is_float(ptx_type t) { return t >= PT_F16 && t <= PT_F64; }

/* ---- opcodes ------------------------------------------------------------------------
 * One row per PTX opcode: enum name, PTX spelling, static class. The class drives
 * the instruction mix statistics and the timing model's functional-unit choice. */
typedef enum {
    PC_ALU,   /* integer / logic / f32 arithmetic on the SP units            */
    PC_SFU,   /* transcendental and special functions                        */
    PC_DP,    /* double-precision arithmetic (set by the binder from type)   */
    PC_MEM,   /* ld/st/atom/red/prefetch                                     */
    PC_CTRL,  /* bra/call/ret/exit                                           */
    PC_BAR,   /* barriers and fences                                         */
    PC_WARP,  /* warp-level collectives: shfl/vote/match/redux/activemask    */
    PC_MISC,  /* nop-like: pragmas kept as instructions, brkpt, trap, pmevent */
    PC__COUNT
} ptx_class;

#define PTX_OPCODES(X)                                                                  \
    X(ABS, "abs", PC_ALU) X(ADD, "add", PC_ALU) X(ADDC, "addc", PC_ALU)                  \
    X(SUB, "sub", PC_ALU) X(SUBC, "subc", PC_ALU) X(MUL, "mul", PC_ALU)                  \
    X(MAD, "mad", PC_ALU) X(MADC, "madc", PC_ALU) X(MUL24, "mul24", PC_ALU)              \
    X(MAD24, "mad24", PC_ALU) X(SAD, "sad", PC_ALU) X(DIV, "div", PC_ALU)                \
    X(REM, "rem", PC_ALU) X(NEG, "neg", PC_ALU) X(MIN, "min", PC_ALU)                    \
    X(MAX, "max", PC_ALU) X(FMA, "fma", PC_ALU) X(COPYSIGN, "copysign", PC_ALU)          \
    X(TESTP, "testp", PC_ALU) X(RCP, "rcp", PC_SFU) X(SQRT, "sqrt", PC_SFU)              \
    X(RSQRT, "rsqrt", PC_SFU) X(SIN, "sin", PC_SFU) X(COS, "cos", PC_SFU)                \
    X(LG2, "lg2", PC_SFU) X(EX2, "ex2", PC_SFU) X(TANH, "tanh", PC_SFU)                  \
    X(AND, "and", PC_ALU) X(OR, "or", PC_ALU) X(XOR, "xor", PC_ALU) X(NOT, "not", PC_ALU) \
    X(CNOT, "cnot", PC_ALU) X(LOP3, "lop3", PC_ALU) X(SHL, "shl", PC_ALU)                \
    X(SHR, "shr", PC_ALU) X(SHF, "shf", PC_ALU) X(BFE, "bfe", PC_ALU) X(BFI, "bfi", PC_ALU) \
    X(BREV, "brev", PC_ALU) X(POPC, "popc", PC_ALU) X(CLZ, "clz", PC_ALU)                \
    X(BFIND, "bfind", PC_ALU) X(FNS, "fns", PC_ALU) X(PRMT, "prmt", PC_ALU)              \
    X(DP4A, "dp4a", PC_ALU) X(DP2A, "dp2a", PC_ALU)                                      \
    X(SETP, "setp", PC_ALU) X(SET, "set", PC_ALU) X(SELP, "selp", PC_ALU)                \
    X(SLCT, "slct", PC_ALU) X(MOV, "mov", PC_ALU) X(CVT, "cvt", PC_ALU)                  \
    X(CVTA, "cvta", PC_ALU) X(ISSPACEP, "isspacep", PC_ALU)                              \
    X(LD, "ld", PC_MEM) X(LDU, "ldu", PC_MEM) X(ST, "st", PC_MEM)                        \
    X(PREFETCH, "prefetch", PC_MEM) X(PREFETCHU, "prefetchu", PC_MEM)                    \
    X(ATOM, "atom", PC_MEM) X(RED, "red", PC_MEM)                                        \
    X(BAR, "bar", PC_BAR) X(BARRIER, "barrier", PC_BAR) X(MEMBAR, "membar", PC_BAR)      \
    X(FENCE, "fence", PC_BAR)                                                            \
    X(VOTE, "vote", PC_WARP) X(SHFL, "shfl", PC_WARP) X(MATCH, "match", PC_WARP)         \
    X(REDUX, "redux", PC_WARP) X(ACTIVEMASK, "activemask", PC_WARP)                      \
    X(BRA, "bra", PC_CTRL) X(BRX, "brx", PC_CTRL) X(CALL, "call", PC_CTRL)               \
    X(RET, "ret", PC_CTRL) X(EXIT, "exit", PC_CTRL)                                      \
    X(TRAP, "trap", PC_MISC) X(BRKPT, "brkpt", PC_MISC) X(NANOSLEEP, "nanosleep", PC_MISC) \
    X(PMEVENT, "pmevent", PC_MISC) X(NOP, "nop", PC_MISC)

typedef enum {
#define X(e, s, c) OP_##e,
    PTX_OPCODES(X)
#undef X
    OP__COUNT
} ptx_opcode;

typedef struct {
    const char *name;
    ptx_class cls;
} ptx_op_desc;
extern const ptx_op_desc ptx_op_info[OP__COUNT];

/* ---- modifiers ---------------------------------------------------------------------- */
typedef enum { SP_NONE, SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_CONST,
               SP__COUNT } ptx_space;
extern const char *const ptx_space_name[SP__COUNT];

/* Comparison operators of setp/set/slct (unordered ones for floats). */
typedef enum { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS,
               CMP_HI, CMP_HS, CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU,
               CMP_NUM, CMP_NAN } ptx_cmp;

/* Rounding: .rn .rz .rm .rp for floats, .rni .rzi .rmi .rpi for float->int rounding. */
typedef enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA,
               RND_RNI, RND_RZI, RND_RMI, RND_RPI } ptx_rnd;

/* Sub-operation, meaning depends on the opcode:
 *  setp/set: combine with .and/.or/.xor (BOOL_*)
 *  atom/red/redux: the operation (AOP_*)
 *  vote: VOTE_*; shfl: SHFL_*; match: MATCH_*; bar/barrier: BAR_*
 *  testp: TESTP_*; mul/mad: MUL_HI/LO/WIDE; shf: SHF_L/R; prmt: PRMT_*
 *  min/max: 1 = .NaN (propagate NaN); prefetch: 1 = .L1, 2 = .L2; pmevent: 1 = .mask */
enum {
    BOOL_NONE = 0, BOOL_AND, BOOL_OR, BOOL_XOR,
    AOP_NONE = 0, AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_CAS, AOP_EXCH,
    AOP_AND, AOP_OR, AOP_XOR,
    VOTE_ALL = 1, VOTE_ANY, VOTE_UNI, VOTE_BALLOT,
    SHFL_UP = 1, SHFL_DOWN, SHFL_BFLY, SHFL_IDX,
    MATCH_ANY = 1, MATCH_ALL,
    BAR_SYNC = 1, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR, BAR_WARP_SYNC,
    TESTP_FINITE = 1, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL,
    TESTP_SUBNORMAL,
    MUL_LO = 1, MUL_HI, MUL_WIDE,
    SHF_L = 1, SHF_R,
    PRMT_DEFAULT = 0, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16,
};

/* Cache operators and memory-ordering qualifiers of ld/st/atom/red (recorded for the
 * timing model and the coherence protocols; SPEC section 6 maps them to GLC/SLC). */
typedef enum { CO_NONE, CO_CA, CO_CG, CO_CS, CO_LU, CO_CV, CO_WB, CO_WT } ptx_cacheop;
typedef enum { SEM_NONE, SEM_WEAK, SEM_VOLATILE, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE,
               SEM_ACQ_REL, SEM_SC } ptx_sem;
typedef enum { SCOPE_NONE, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS } ptx_scope;

/* Boolean modifier flags. */
enum {
    MF_SAT = 1u << 0,     /* .sat                                              */
    MF_FTZ = 1u << 1,     /* .ftz                                              */
    MF_CC = 1u << 2,      /* .cc: writes the carry flag                        */
    MF_UNI = 1u << 3,     /* .uni on bra/call/ret                              */
    MF_APPROX = 1u << 4,  /* .approx                                           */
    MF_FULL = 1u << 5,    /* .full (div.full.f32)                              */
    MF_NC = 1u << 6,      /* ld.global.nc                                      */
    MF_WRAP = 1u << 7,    /* shf .wrap (else .clamp)                           */
    MF_CLAMP = 1u << 8,   /* shf .clamp                                        */
    MF_SHIFTAMT = 1u << 9,/* bfind.shiftamt                                    */
    MF_SYNC = 1u << 10,   /* .sync variants of vote/shfl/bar                   */
    MF_ALIGNED = 1u << 11,/* barrier.sync.aligned                              */
    MF_NOINC = 1u << 12,  /* .noftz on atom/red (f16/bf16 adds)                */
    MF_RELU = 1u << 13,   /* .relu on f16 ops                                  */
    MF_TO = 1u << 14,     /* cvta.to.<space> (else cvta.<space>)               */
    MF_B32LO = 1u << 15,  /* mul24/mad24 .hi selects high bits (see MUL_*)    */
};

/* ---- operands ------------------------------------------------------------------------ */
typedef enum {
    OK_NONE,
    OK_REG,    /* register slot r                                               */
    OK_IMM,    /* immediate (integer bits, or float bits for 0f/0d and decimals) */
    OK_SREG,   /* special register: sreg id (+ component in .comp)              */
    OK_SYM,    /* address of a symbol: sym index (+ imm offset)                 */
    OK_ADDR,   /* memory address [base + imm]: base is a REG or a SYM or none    */
    OK_VEC,    /* {r, r, ...}: n registers starting at pool index .vec          */
    OK_LABEL,  /* branch target: instruction index                               */
    OK_FUNC,   /* call target: function index in the module                     */
    OK_PARAMS, /* call argument list: n symbol indices starting at pool .vec     */
    OK_SINK,   /* the sink "_" (result discarded)                                */
} ptx_opkind;

/* Special registers. Components x/y/z are SR_xxx + 0/1/2. */
typedef enum {
    SR_TID, SR_TID_Y, SR_TID_Z, SR_NTID, SR_NTID_Y, SR_NTID_Z,
    SR_CTAID, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID, SR_NCTAID_Y, SR_NCTAID_Z,
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO,
    SR_GLOBALTIMER_HI,
    SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE, SR_LANEMASK_GT, SR_LANEMASK_GE,
    SR_DYNAMIC_SMEM_SIZE, SR_TOTAL_SMEM_SIZE, SR_WARPSZ, SR_ENVREG, SR__COUNT
} ptx_sreg;
extern const char *const ptx_sreg_name[SR__COUNT];
/* 1 when special register sr has the same value in every lane of a warp (all but the
 * thread index, the lane id and the lane masks). */
int ptx_sreg_warp_uniform(uint32_t sr);

typedef struct {
    uint8_t kind;     /* ptx_opkind                                                  */
    uint8_t neg;      /* !%p as a predicate source operand                            */
    uint8_t base;     /* OK_ADDR: OK_REG, OK_SYM or OK_NONE (absolute address)      */
    uint8_t n;        /* OK_VEC / OK_PARAMS: element count                            */
    uint32_t r;       /* OK_REG: slot; OK_ADDR with base REG: slot; OK_SREG: ptx_sreg;
                         OK_SYM / OK_ADDR base SYM: symbol index; OK_LABEL: insn index;
                         OK_FUNC: function index; OK_VEC / OK_PARAMS: pool index     */
    uint64_t imm;     /* OK_IMM value; OK_ADDR / OK_SYM byte offset                  */
} ptx_operand;

/* Operand layout: PTX textual order, destination first, with these fixed slots:
 *  setp.cmp[.bool].type   p, q|NONE, a, b [, c]       (q: the `p|q` second dest)
 *  shfl[.sync].mode.b32    d, p|NONE, a, b, c [, membermask]
 *  match.all.sync.type     d, p|NONE, a, membermask;  match.any: d, NONE, a, membermask
 *  ld / ldu                d (REG or VEC), ADDR
 *  st                      ADDR, a (REG, IMM or VEC)
 *  atom                    d, ADDR, b [, c]   (cas: b = compare, c = new value)
 *  red                     ADDR, b
 *  bra                     LABEL
 *  call                    PARAMS (returns, n may be 0), FUNC, PARAMS (arguments)
 *  vote.mode[.sync]        d, a [, membermask]
 *  bar.sync / barrier.sync a [, b]           bar.arrive a, b
 *  bar.red.op              d, a, b|NONE, c   (c: predicate, may be negated)
 *  mov                     d, a              (d or a may be VEC: unpack / pack)
 *  others                  d, a [, b [, c [, d2]]] as written (lop3: d, a, b, c, lut)
 * Types: .type is the instruction type; .type2 the second one where PTX has two:
 *  cvt d-type . a-type (type=d, type2=a); set.cmp.dtype.stype (type=d, type2=s);
 *  slct.dtype.s32|f32 (type2 = c's type); dp4a/dp2a atype.btype; mul/mad .wide:
 *  type is the *source* type, the destination is twice as wide.
 * Immediates (OK_IMM) are stored in the register encoding of the operand's type:
 *  integers sign-extended to 64 bits; for a float-typed operand (float instruction
 *  type, cvt's float source, setp/set's float comparison type) decimal literals and
 *  0f/0d literals are converted to that float type's bits (f16: binary16 bits);
 *  0f/0d literals used with a .b32/.b64/integer type keep their raw bits.
 * Float rounding absent (RND_NONE) means the PTX default (.rn). */
#define PTX_MAX_OPS 6

/* A decoded instruction. Operand 0 is the destination where the instruction has one
 * (setp: d, then the optional second predicate destination is ops[1] of kind OK_REG
 * or OK_SINK when '|' is present; see parse.c for each opcode's operand layout). */
typedef struct {
    uint16_t op;        /* ptx_opcode                                       */
    uint8_t type;       /* ptx_type: the instruction type (.s32, .f32 ...)   */
    uint8_t type2;      /* cvt: source type; set/slct: comparison type; ...  */
    uint8_t space;      /* ptx_space of ld/st/atom/red/cvta/isspacep          */
    uint8_t cmp;        /* ptx_cmp                                          */
    uint8_t rnd;        /* ptx_rnd                                          */
    uint8_t sub;        /* sub-operation (see the enum above)               */
    uint8_t vec;        /* 1, 2 or 4 (ld/st .v2/.v4)                        */
    uint8_t cop;        /* ptx_cacheop                                      */
    uint8_t sem;        /* ptx_sem                                          */
    uint8_t scope;      /* ptx_scope                                        */
    uint8_t nops;       /* operands used                                    */
    uint8_t guard_neg;  /* @!%p                                             */
    uint8_t cls;        /* ptx_class (DP when the binder decides so)        */
    uint8_t pad;
    uint32_t flags;     /* MF_* bits                                        */
    int32_t guard;      /* guard predicate slot, or -1                      */
    uint32_t line, col; /* PTX source position, for error messages          */
    ptx_operand ops[PTX_MAX_OPS];
} ptx_insn;

/* ---- symbols ------------------------------------------------------------------------- */
/* Variables (.global .const .shared .local), parameters, and the per-call-site .param
 * variables nvcc declares in `{ }` call sequences. Addresses are assigned at load:
 *  - GLOBAL/CONST: device address (module load allocates and initialises them)
 *  - SHARED: byte offset in the CTA's shared memory (extern: after static data)
 *  - LOCAL, and PARAM declared inside a .func or a call sequence: byte offset in the
 *    owning function's per-thread frame (frame-relative; frames stack on call)
 *  - PARAM of an .entry: byte offset in the kernel parameter buffer */
typedef struct {
    uint32_t name;      /* offset in the module string table                */
    uint8_t space;      /* ptx_space                                        */
    uint8_t type;       /* element type as declared (.b8, .u32, .f32 ...)   */
    uint8_t is_extern;  /* .extern .shared dyn[] (size 0)                   */
    uint8_t is_param;   /* a .param (formal param, retval, or call-site)    */
    int32_t func;       /* owning function, or -1 for module scope          */
    uint32_t align;     /* bytes                                            */
    uint64_t size;      /* bytes (array length x element size)              */
    uint64_t addr;      /* see above; filled by layout / module load        */
    uint32_t init;      /* offset in module init pool, or UINT32_MAX        */
    uint32_t line, col;
} ptx_symbol;

/* ---- functions ----------------------------------------------------------------------- */
typedef struct {
    uint32_t name;      /* string table offset ("%r12")                     */
    uint8_t type;       /* ptx_type as declared                             */
} ptx_reg;

typedef struct {
    uint32_t sym;       /* symbol index of the parameter                    */
} ptx_param;

typedef struct ptx_cfg ptx_cfg; /* cfg.h */

typedef struct {
    uint32_t name;            /* string table offset                               */
    uint8_t is_entry;         /* .entry (kernel) vs .func                           */
    uint8_t is_visible;       /* .visible / .weak / .extern linkage                 */
    uint8_t is_decl;          /* declaration only (prototype, no body)              */
    uint32_t line, col;
    uint32_t n_params, n_rets;
    uint32_t *params;         /* symbol indices of .param inputs, in order          */
    uint32_t *rets;           /* symbol indices of return .params                    */
    uint32_t n_regs;          /* register slots (scoped blocks get their own)       */
    ptx_reg *regs;
    uint32_t n_insns;
    ptx_insn *insns;
    uint32_t frame_size;      /* per-thread local bytes: .local + func/call params  */
    uint32_t frame_align;
    uint64_t shared_static;   /* bytes of .shared this function declares            */
    uint32_t param_size;      /* .entry: kernel parameter buffer size in bytes       */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg; /* 0 when absent         */
    uint32_t ptxas_regs;      /* registers per thread ptxas allocated, from a
                               * `.pragma "warpsim.regs NAME N";` (0 = unknown)     */
    char *policy;             /* scheduler policy embedded by `.pol` / pragma, or NULL */
    ptx_cfg *cfg;             /* built by ptx_cfg_build (cfg.h), owned by the function */
} ptx_func;

typedef struct {
    char *file;               /* file name used in messages                        */
    uint32_t version_major, version_minor;
    char *target;             /* "sm_75" ...                                       */
    uint32_t address_size;
    char *policy;             /* module-level `.pol "LRR";` or pragma, or NULL      */

    char *strtab;             /* all names, NUL-separated                           */
    size_t strtab_len, strtab_cap;

    uint32_t n_funcs;
    ptx_func *funcs;
    uint32_t n_syms;
    ptx_symbol *syms;
    uint32_t *pool;           /* OK_VEC register lists and OK_PARAMS symbol lists   */
    size_t pool_len, pool_cap;
    uint8_t *init;            /* initial bytes of initialised .global/.const vars   */
    size_t init_len, init_cap;
    uint64_t shared_static;   /* bytes of module-scope .shared variables            */
} ptx_module;

static inline const char *ptx_str(const ptx_module *m, uint32_t off) { return m->strtab + off; }

/* ---- diagnostics --------------------------------------------------------------------- */
/* Parse errors: "file:line:col: message". The parser stops at the first error. */
typedef struct {
    char msg[512];
    uint32_t line, col;
} ptx_diag;

/* Parses PTX text (len bytes, need not be NUL-terminated). On success returns a module
 * with symbols laid out (shared/local/param offsets) and the CFG of every defined
 * function built; on failure returns NULL and fills *d. `file` names the source. */
ptx_module *ptx_parse(const char *text, size_t len, const char *file, ptx_diag *d);
void ptx_module_free(ptx_module *m);

/* Lookups (NULL / -1 when absent). */
int ptx_find_func(const ptx_module *m, const char *name);
int ptx_find_sym(const ptx_module *m, const char *name);

/* Registers an instruction writes (dst) and reads (src: guard, sources, address
 * base, stored values), following the operand layout above; vector elements are
 * expanded and `_` sinks skipped. Returns the counts through *n_dst / *n_src (at most
 * the capacities given in them on entry). */
void ptx_insn_regs(const ptx_module *m, const ptx_insn *in, uint32_t *dst, uint32_t *n_dst,
                   uint32_t *src, uint32_t *n_src);

/* Writes one instruction back as PTX text (for traces, errors and tests). */
int ptx_insn_format(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *buf,
                    size_t n);

#endif
