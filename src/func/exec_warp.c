/* exec_warp.c - warp collectives (shfl, vote, match, redux, activemask) and the
 * control instructions, whose handlers only report what happened: the SIMT stack in
 * warp.c does the branching, calling and barrier work.
 *
 * Collectives read every source lane before writing any destination, because the
 * destination register may also be the source. Lanes outside x->mask (inactive or
 * guarded off) do not take part; a shuffle from such a lane returns the source
 * lane's current register value (the PTX ISA leaves it undefined).
 */
#include <stdio.h>

#include "func/func.h"
#include "util/err.h"

/* ---- shfl --------------------------------------------------------------------------- */
static void x_shfl(exec_ctx *x, const ptx_insn *in)
{
    uint64_t src[64];
    for (unsigned l = 0; l < x->ws && l < 64; l++)
        src[l] = x->mask >> l & 1 ? ex_src(x, &in->ops[2], l)
               : in->ops[2].kind == OK_REG ? ex_reg(x, in->ops[2].r, l) : 0;
    EX_FOR_LANES(x->mask, l) {
        int32_t b = (int32_t)ex_src(x, &in->ops[3], l);
        uint32_t c = (uint32_t)ex_src(x, &in->ops[4], l);
        int32_t seg = (int32_t)((c >> 8) & 0x1f);
        int32_t lane = (int32_t)l;
        int32_t max_lane = (lane & seg) | ((int32_t)(c & 0x1f) & ~seg);
        int32_t min_lane = lane & seg;
        int32_t j;
        int ok;
        switch (in->sub) {
        case SHFL_UP: j = lane - (b & 0x1f); ok = j >= max_lane; break;
        case SHFL_DOWN: j = lane + (b & 0x1f); ok = j <= max_lane; break;
        case SHFL_BFLY: j = lane ^ (b & 0x1f); ok = j <= max_lane; break;
        default: j = min_lane | (b & 0x1f & ~seg); ok = j <= max_lane; break;
        }
        if (!ok || j < 0 || j >= (int32_t)x->ws)
            j = lane;
        ex_dst_w(x, &in->ops[0], l, src[j], 4);
        if (in->ops[1].kind == OK_REG)
            ex_dst(x, &in->ops[1], l, (uint64_t)ok);
    }
}

/* ---- vote / match / redux / activemask ------------------------------------------------ */
static void x_vote(exec_ctx *x, const ptx_insn *in)
{
    uint64_t yes = 0;
    EX_FOR_LANES(x->mask, l) yes |= (uint64_t)ex_pred(x, &in->ops[1], l) << l;
    uint64_t r;
    switch (in->sub) {
    case VOTE_ALL: r = yes == x->mask; break;
    case VOTE_ANY: r = yes != 0; break;
    case VOTE_UNI: r = yes == 0 || yes == x->mask; break;
    default: r = yes; break;
    }
    EX_FOR_LANES(x->mask, l) ex_dst_w(x, &in->ops[0], l, r, in->sub == VOTE_BALLOT ? 4 : 8);
}

static void x_match(exec_ctx *x, const ptx_insn *in)
{
    const ptx_operand *a = &in->ops[2];
    unsigned sz = ptx_type_size[in->type];
    uint64_t v[64];
    EX_FOR_LANES(x->mask, l) v[l] = ex_trunc(ex_src(x, a, l), sz);
    if (in->sub == MATCH_ALL) {
        int all = 1;
        unsigned l0 = x->mask ? (unsigned)__builtin_ctzll(x->mask) : 0;
        EX_FOR_LANES(x->mask, l) all &= v[l] == v[l0];
        EX_FOR_LANES(x->mask, l) {
            ex_dst_w(x, &in->ops[0], l, all ? x->mask : 0, 4);
            if (in->ops[1].kind == OK_REG)
                ex_dst(x, &in->ops[1], l, (uint64_t)all);
        }
        return;
    }
    uint64_t res[64];
    EX_FOR_LANES(x->mask, l) {
        uint64_t m = 0;
        EX_FOR_LANES(x->mask, k) m |= (uint64_t)(v[k] == v[l]) << k;
        res[l] = m;
    }
    EX_FOR_LANES(x->mask, l) ex_dst_w(x, &in->ops[0], l, res[l], 4);
}

static void x_redux(exec_ctx *x, const ptx_insn *in)
{
    int sgn = in->type == PT_S32;
    uint64_t acc = 0;
    int first = 1;
    EX_FOR_LANES(x->mask, l) {
        uint32_t v = (uint32_t)ex_src(x, &in->ops[1], l);
        if (first) { acc = v; first = 0; continue; }
        switch (in->sub) {
        case AOP_ADD: acc = (uint32_t)(acc + v); break;
        case AOP_AND: acc &= v; break;
        case AOP_OR: acc |= v; break;
        case AOP_XOR: acc ^= v; break;
        case AOP_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case AOP_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        default: break;
        }
    }
    EX_FOR_LANES(x->mask, l) ex_dst_w(x, &in->ops[0], l, acc, 4);
}

static void x_activemask(exec_ctx *x, const ptx_insn *in)
{
    EX_FOR_LANES(x->mask, l) ex_dst_w(x, &in->ops[0], l, x->mask, 4);
}

/* ---- control markers -------------------------------------------------------------------- */
static void x_bra(exec_ctx *x, const ptx_insn *in)
{
    (void)in;
    x->ctrl = EX_BRANCH;
    x->taken = x->mask;
}

static void x_call(exec_ctx *x, const ptx_insn *in) { (void)in; x->ctrl = EX_CALL; }
static void x_ret(exec_ctx *x, const ptx_insn *in) { (void)in; x->ctrl = x->mask ? EX_RET : EX_NEXT; }
static void x_exit(exec_ctx *x, const ptx_insn *in) { (void)in; x->ctrl = x->mask ? EX_EXIT : EX_NEXT; }
static void x_bar(exec_ctx *x, const ptx_insn *in) { (void)in; x->ctrl = x->mask ? EX_BARRIER : EX_NEXT; }
static void x_nop(exec_ctx *x, const ptx_insn *in) { (void)x; (void)in; }

static void x_trap(exec_ctx *x, const ptx_insn *in)
{
    if (x->mask)
        ex_fault_code(x, in, (unsigned)__builtin_ctzll(x->mask), WS_E_TRAP, "%s executed",
                      ptx_op_info[in->op].name);
}

exec_fn exec_bind_warp(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n)
{
    (void)m;
    (void)f;
    switch (in->op) {
    case OP_SHFL: return x_shfl;
    case OP_VOTE: return x_vote;
    case OP_MATCH: return x_match;
    case OP_REDUX:
        if (ptx_type_size[in->type] != 4) {
            snprintf(why, n, "redux.%s is not supported", ptx_type_name[in->type]);
            return NULL;
        }
        return x_redux;
    case OP_ACTIVEMASK: return x_activemask;
    case OP_BRA: return x_bra;
    case OP_CALL:
        if (in->ops[1].kind != OK_FUNC) {
            snprintf(why, n, "indirect calls are not supported");
            return NULL;
        }
        return x_call;
    case OP_RET: return x_ret;
    case OP_EXIT: return x_exit;
    case OP_BAR:
    case OP_BARRIER: return x_bar;
    case OP_MEMBAR:
    case OP_FENCE:
    case OP_NANOSLEEP:
    case OP_PMEVENT:
    case OP_NOP: return x_nop;
    case OP_TRAP:
    case OP_BRKPT: return x_trap;
    default:
        snprintf(why, n, "%s is not supported", ptx_op_info[in->op].name);
        return NULL;
    }
}
