/* warp.c - a warp's functional state: paths, call frames, barriers.
 *
 * Which lanes run which instruction next belongs to the divergence policy (div.h,
 * per-warp state in w->dstate): this file asks it for a path, executes one
 * instruction of that path and tells the policy what happened. Calls push a frame
 * (register file and local-memory frame) and a path in it; `ret` removes its lanes
 * from every path of the frame, so divergent returns work. Invariant (div.h): every
 * runnable path lies in the innermost frame, w->fr[w->nfr - 1].
 */
#include "func/func.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

#define NO_PC UINT32_MAX

/* ---- faults -------------------------------------------------------------------------- */
void func_fault_set(func_launch *L, int code, const char *fmt, ...)
{
    if (L->fault.code)
        return;
    L->fault.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->fault.msg, sizeof L->fault.msg, fmt, ap);
    va_end(ap);
}

static void fault_v(exec_ctx *x, const ptx_insn *in, unsigned lane, int code, const char *fmt,
                    va_list ap)
{
    func_warp *w = x->w;
    func_launch *L = w->L;
    x->ctrl = EX_FAULT;
    w->state = WARP_FAULT;
    if (L->fault.code)
        return;
    char what[384];
    vsnprintf(what, sizeof what, fmt, ap);
    uint32_t t = w->wid * L->ws + lane;
    uint32_t bx = L->block[0], by = L->block[1];
    const ptx_module *m = L->prog->m;
    const ptx_func *f = &m->funcs[w->fr[w->nfr - 1].func];
    L->fault.code = code;
    snprintf(L->fault.msg, sizeof L->fault.msg,
             "%s:%u: kernel '%s'%s%s, thread (%u,%u,%u) of CTA (%u,%u,%u): %s",
             m->file ? m->file : "<ptx>", in ? in->line : 0, ptx_str(m, L->kernel->name),
             f != L->kernel ? " in function " : "", f != L->kernel ? ptx_str(m, f->name) : "",
             t % bx, (t / bx) % by, t / (bx * by), w->cta->ctaid[0], w->cta->ctaid[1],
             w->cta->ctaid[2], what);
}

void ex_fault(exec_ctx *x, const ptx_insn *in, unsigned lane, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_v(x, in, lane, WS_E_LAUNCH_FAILED, fmt, ap);
    va_end(ap);
}

void ex_fault_code(exec_ctx *x, const ptx_insn *in, unsigned lane, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_v(x, in, lane, code, fmt, ap);
    va_end(ap);
}

/* ---- operands ------------------------------------------------------------------------ */
int func_is_kernel_param(const ptx_module *m, uint32_t sym)
{
    const ptx_symbol *s = &m->syms[sym];
    if (s->space != SP_PARAM || s->func < 0 || !m->funcs[s->func].is_entry)
        return 0;
    const ptx_func *f = &m->funcs[s->func];
    for (uint32_t i = 0; i < f->n_params; i++)
        if (f->params[i] == sym)
            return 1;
    return 0;   /* a call-site .param declared in the kernel body: frame memory */
}

uint64_t func_sym_value(const func_warp *w, uint32_t sym)
{
    const ptx_module *m = w->L->prog->m;
    const ptx_symbol *s = &m->syms[sym];
    switch (s->space) {
    case SP_SHARED:
        return s->is_extern ? w->L->dyn_base + s->addr : s->addr;
    case SP_LOCAL:
        return w->fr[w->nfr - 1].local_base + s->addr;
    case SP_PARAM:
        if (w->L->prog->kparam[sym])
            return s->addr;                       /* kernel parameter buffer offset */
        return w->fr[w->nfr - 1].local_base + s->addr;
    default:
        return s->addr;                           /* global / const device address  */
    }
}

uint64_t ex_src_slow(const exec_ctx *x, const ptx_operand *o, unsigned lane)
{
    const func_warp *w = x->w;
    const func_launch *L = w->L;
    uint32_t t = w->wid * L->ws + lane;
    const uint32_t *b = L->block;
    switch (o->kind) {
    case OK_SYM:
        return func_sym_value(w, o->r) + o->imm;
    case OK_SREG:
        switch ((ptx_sreg)o->r) {
        /* power-of-two block dimensions (the usual case) without a division per lane */
        case SR_TID: return b[0] & (b[0] - 1) ? t % b[0] : t & (b[0] - 1);
        case SR_TID_Y:
            if (!(b[0] & (b[0] - 1)) && !(b[1] & (b[1] - 1)))
                return (t >> __builtin_ctz(b[0])) & (b[1] - 1);
            return (t / b[0]) % b[1];
        case SR_TID_Z: return t / (b[0] * b[1]);
        case SR_NTID: return b[0];
        case SR_NTID_Y: return b[1];
        case SR_NTID_Z: return b[2];
        case SR_CTAID: return w->cta->ctaid[0];
        case SR_CTAID_Y: return w->cta->ctaid[1];
        case SR_CTAID_Z: return w->cta->ctaid[2];
        case SR_NCTAID: return L->grid[0];
        case SR_NCTAID_Y: return L->grid[1];
        case SR_NCTAID_Z: return L->grid[2];
        case SR_LANEID: return lane;
        case SR_WARPID: return w->wid;
        case SR_NWARPID: return L->max_warps_sm;
        case SR_SMID: return w->cta->smid;
        case SR_NSMID: return L->n_sm;
        case SR_GRIDID: return L->gridid;
        case SR_CLOCK: return (uint32_t)w->clock;
        case SR_CLOCK_HI: return (uint32_t)(w->clock >> 32);
        case SR_CLOCK64: return w->clock;
        case SR_GLOBALTIMER: return w->clock * 1000 / (L->core_mhz ? L->core_mhz : 1);
        case SR_GLOBALTIMER_LO: return (uint32_t)(w->clock * 1000 / (L->core_mhz ? L->core_mhz : 1));
        case SR_GLOBALTIMER_HI: return (w->clock * 1000 / (L->core_mhz ? L->core_mhz : 1)) >> 32;
        case SR_LANEMASK_EQ: return 1ull << lane;
        case SR_LANEMASK_LT: return (1ull << lane) - 1;
        case SR_LANEMASK_LE: return lane >= 63 ? ~0ull : (2ull << lane) - 1;
        case SR_LANEMASK_GT: return lane >= 63 ? 0 : ~((2ull << lane) - 1) & (L->ws >= 64 ? ~0ull : (1ull << L->ws) - 1);
        case SR_LANEMASK_GE: return ~((1ull << lane) - 1) & (L->ws >= 64 ? ~0ull : (1ull << L->ws) - 1);
        case SR_DYNAMIC_SMEM_SIZE: return L->shared_bytes - L->dyn_base;
        case SR_TOTAL_SMEM_SIZE: return L->shared_bytes;
        case SR_WARPSZ: return L->ws;
        default: return 0;
        }
    case OK_IMM:
        return o->imm;
    case OK_REG:
        return ex_reg(x, o->r, lane);
    default:
        return 0;
    }
}

uint64_t func_reg_value(const func_warp *w, uint32_t reg, unsigned lane)
{
    const func_frame *fr = &w->fr[w->nfr - 1];
    const exec_ctx x = {.r = w->regpool + fr->reg_pos, .ws = w->L->ws, .b64 = fr->b64};
    return ex_reg(&x, w->L->prog->reg_row[fr->func][reg], lane);
}

/* ---- launch-level policy state -------------------------------------------------------- */
int func_launch_div_init(func_launch *L)
{
    L->dstate = NULL;
    return L->div->create ? L->div->create(L, &L->dstate) : 0;
}

void func_launch_div_fini(func_launch *L)
{
    if (L->dstate && L->div->destroy)
        L->div->destroy(L->dstate);
    L->dstate = NULL;
}

/* ---- frames --------------------------------------------------------------------------- */
static int ensure_regs(func_warp *w, size_t need)
{
    if (need <= w->reg_cap)
        return 0;
    size_t cap = w->reg_cap ? w->reg_cap : 1024;
    while (cap < need)
        cap *= 2;
    uint32_t *nr = realloc(w->regpool, cap * sizeof *nr);
    if (!nr)
        return -1;
    w->regpool = nr;
    w->reg_cap = cap;
    return 0;
}

/* Grows each lane's local memory to at least `need` bytes (lane-major layout). */
static int ensure_local(func_warp *w, uint32_t need)
{
    if (need <= w->local_cap)
        return 0;
    uint32_t cap = w->local_cap ? w->local_cap : 256;
    while (cap < need)
        cap *= 2;
    uint8_t *nl = calloc((size_t)w->L->ws, cap);
    if (!nl)
        return -1;
    for (uint32_t l = 0; l < w->L->ws && w->local; l++)
        memcpy(nl + (size_t)l * cap, w->local + (size_t)l * w->local_cap, w->local_cap);
    free(w->local);
    w->local = nl;
    w->local_cap = cap;
    return 0;
}

static int push_frame(func_warp *w, int32_t func, uint32_t call_pc)
{
    const ptx_module *m = w->L->prog->m;
    const ptx_func *f = &m->funcs[func];
    if (!w->fr_cap) {
        w->fr = &w->fr0;   /* the first frame: inline (func.h) */
        w->fr_cap = 1;
    } else if (w->nfr == w->fr_cap) {
        uint32_t cap = w->fr_cap > 2 ? w->fr_cap * 2 : 4;
        const int from_in = w->fr == &w->fr0;
        func_frame *nf = from_in ? malloc(cap * sizeof *nf) : realloc(w->fr, cap * sizeof *nf);
        if (!nf)
            return -1;
        if (from_in)
            *nf = w->fr0;
        w->fr = nf;
        w->fr_cap = cap;
    }
    const func_prog *pg = w->L->prog;
    func_frame fr = {.func = func, .call_pc = call_pc, .b64 = pg->b64[func], .f = f,
                     .insns = pg->insns[func], .fns = pg->fns[func], .mix = pg->mix[func]};
    const uint32_t ws = w->L->ws;
    if (w->nfr) {
        const func_frame *up = &w->fr[w->nfr - 1];
        uint32_t align = f->frame_align > 8 ? f->frame_align : 8;
        fr.reg_off = up->reg_off + (size_t)pg->n_slots[up->func] * ws;
        /* (an even count of 4-byte units: the 8-byte rows stay 8-byte aligned) */
        size_t pos = up->reg_pos + ((size_t)pg->rows[up->func] * ws + 1) / 2 * 2;
        if (pos + (size_t)pg->rows[func] * ws + 2 > UINT32_MAX)
            return -1;
        fr.reg_pos = (uint32_t)pos;
        fr.local_base = (up->local_base + m->funcs[up->func].frame_size + align - 1) & ~(align - 1);
    }
    size_t nregs = (size_t)pg->rows[func] * ws;
    if (ensure_regs(w, fr.reg_pos + nregs + 2))   /* never NULL, even with no registers */
        return -1;
    /* only the rows some lane can read before writing (regalloc.h clear) */
    uint32_t *base = w->regpool + fr.reg_pos;
    if (pg->n_clear[func] == pg->n_slots[func]) {
        memset(base, 0, nregs * sizeof *base);
    } else {
        const uint32_t *cl = pg->clear[func];
        for (uint32_t k = 0; k < pg->n_clear[func]; k++)
            memset(base + (size_t)cl[k] * ws, 0, (cl[k] < fr.b64 ? 2u : 1u) * ws * sizeof *base);
    }
    w->local_top = fr.local_base + f->frame_size;
    if (w->local_top > w->L->stack_bytes)
        return -2;
    if (f->frame_size && ensure_local(w, w->local_top))
        return -1;
    w->fr[w->nfr++] = fr;
    return 0;
}

int func_warp_init(func_warp *w, func_launch *L, func_cta *cta, uint32_t wid)
{
    /* keep the buffers of a previous CTA: no allocation per CTA in steady state */
    w->L = L;
    w->cta = cta;
    w->wid = wid;
    uint32_t first = wid * L->ws;
    w->n_lanes = L->cta_threads - first < L->ws ? L->cta_threads - first : L->ws;
    w->valid = w->n_lanes >= 64 ? ~0ull : (1ull << w->n_lanes) - 1;
    w->exited = 0;
    w->state = WARP_READY;
    w->bar_dst = -1;
    w->bar_parked = 0;
    w->clock = 0;
    w->nfr = 0;
    w->local_top = 0;
    memset(w->cc, 0, sizeof w->cc);
    int kidx = (int)(L->kernel - L->prog->m->funcs);
    if (push_frame(w, kidx, NO_PC))
        return -1;
    if (w->local && w->local_cap)
        memset(w->local, 0, (size_t)L->ws * w->local_cap);
    return L->div->warp_init(w, w->valid);
}

void func_warp_fini(func_warp *w)
{
    if (w->dstate)
        w->L->div->warp_fini(w);   /* dstate is set only after w->L */
    if (w->fr != &w->fr0)
        free(w->fr);
    free(w->regpool);
    free(w->local);
    memset(w, 0, sizeof *w);
}

/* ---- paths ------------------------------------------------------------------------------ */
uint32_t func_warp_paths(const func_warp *w, func_path *out, uint32_t max)
{
    return w->state == WARP_READY ? w->L->div->paths(w, out, max) : 0;
}

int func_warp_peek_path(const func_warp *w, uint32_t path, uint32_t *pc, uint64_t *mask)
{
    const func_path *p;
    if (w->state != WARP_READY || !(p = w->L->div->get(w, path)))
        return 0;
    *pc = p->pc;
    *mask = p->mask;
    return 1;
}

int func_warp_peek(const func_warp *w, uint32_t *pc, uint64_t *mask)
{
    const func_path *p;
    if (w->state != WARP_READY || !(p = w->L->div->select(w)))
        return 0;
    *pc = p->pc;
    *mask = p->mask;
    return 1;
}

int func_warp_where(const func_warp *w, func_path *p)
{
    const func_path *s;
    if (!w->dstate || !(s = w->L->div->select(w)))
        return 0;
    *p = *s;
    return 1;
}

/* Lets the divergence policy drop finished paths, then pops call frames no path
 * runs in any more; marks the warp done when nothing is left. */
static void settle(func_warp *w)
{
    uint32_t top = 0;
    if (w->L->div->settle(w, &top) == 0) {
        w->state = WARP_DONE;
        return;
    }
    while (w->nfr - 1 > top)
        w->nfr--;
    if (w->bar_parked && !w->L->div->select(w))
        w->state = WARP_BARRIER;   /* the paths left all wait at the barrier (the
                                      others exited or returned from the kernel) */
}

/* Copies `size` bytes per lane between two local-memory offsets. */
static void copy_local(func_warp *w, uint64_t lanes, uint32_t dst, uint32_t src, uint64_t size)
{
    EX_FOR_LANES(lanes, l) {
        uint8_t *base = w->local + (size_t)l * w->local_cap;
        memmove(base + dst, base + src, size);
    }
}

static exec_ctrl do_call(func_warp *w, exec_ctx *x, const ptx_insn *in, uint32_t path, uint32_t pc)
{
    const ptx_module *m = w->L->prog->m;
    uint32_t callee = in->ops[1].r;
    const ptx_func *cf = &m->funcs[callee];
    w->L->div->next(w, path);   /* the caller's lanes continue after the call */
    if (x->mask == 0)
        return EX_NEXT;
    if (cf->is_decl || cf->n_insns == 0) {
        ex_fault(x, in, (unsigned)__builtin_ctzll(x->mask), "call to function '%s' that has no body",
                 ptx_str(m, cf->name));
        return EX_FAULT;
    }
    if (w->nfr >= w->L->max_depth) {
        ex_fault(x, in, (unsigned)__builtin_ctzll(x->mask), "call depth exceeds %u (func.max_call_depth)",
                 w->L->max_depth);
        return EX_FAULT;
    }
    uint32_t caller_base = w->fr[w->nfr - 1].local_base;
    int rc = push_frame(w, (int32_t)callee, pc);
    if (rc) {
        ex_fault_code(x, in, (unsigned)__builtin_ctzll(x->mask),
                      rc == -2 ? WS_E_ILLEGAL_ADDRESS : WS_E_OUT_OF_RESOURCES,
                      rc == -2 ? "stack overflow: %u bytes of local memory per thread exceed func.stack_bytes=%u"
                               : "out of host memory for call frame (%u of %u)",
                      w->local_top, w->L->stack_bytes);
        return EX_FAULT;
    }
    uint32_t callee_base = w->fr[w->nfr - 1].local_base;
    const ptx_operand *args = &in->ops[2];
    for (uint32_t i = 0; i < args->n && i < cf->n_params; i++) {
        const ptx_symbol *a = &m->syms[m->pool[args->r + i]];
        const ptx_symbol *fp = &m->syms[cf->params[i]];
        uint64_t size = a->size < fp->size ? a->size : fp->size;
        copy_local(w, x->mask, callee_base + (uint32_t)fp->addr, caller_base + (uint32_t)a->addr, size);
    }
    if (w->L->div->call(w, x->mask, w->nfr - 1)) {
        ex_fault_code(x, in, (unsigned)__builtin_ctzll(x->mask), WS_E_OUT_OF_RESOURCES,
                      "out of host memory for divergence state");
        return EX_FAULT;
    }
    x->r = w->regpool + w->fr[w->nfr - 1].reg_pos;
    x->b64 = w->fr[w->nfr - 1].b64;
    return EX_CALL;
}

static void do_exit(func_warp *w, uint64_t lanes)
{
    w->exited |= lanes;
    w->L->div->remove(w, lanes, 0);
    uint32_t n = (uint32_t)__builtin_popcountll(lanes);
    w->cta->live_threads -= n;
}

static void do_ret(func_warp *w, exec_ctx *x, const ptx_insn *in, uint32_t path, uint32_t pc)
{
    uint32_t cur = w->nfr - 1;
    const func_frame *fr = &w->fr[cur];
    const ptx_module *m = w->L->prog->m;
    (void)in;
    (void)pc;
    if (cur == 0) {                 /* ret from the kernel ends the threads */
        w->L->div->next(w, path);
        do_exit(w, x->mask);
        return;
    }
    const ptx_func *cf = &m->funcs[fr->func];
    const ptx_insn *call = &m->funcs[w->fr[cur - 1].func].insns[fr->call_pc];
    const ptx_operand *rets = &call->ops[0];
    for (uint32_t i = 0; i < rets->n && i < cf->n_rets; i++) {
        const ptx_symbol *dst = &m->syms[m->pool[rets->r + i]];
        const ptx_symbol *src = &m->syms[cf->rets[i]];
        uint64_t size = dst->size < src->size ? dst->size : src->size;
        copy_local(w, x->mask, w->fr[cur - 1].local_base + (uint32_t)dst->addr,
                   fr->local_base + (uint32_t)src->addr, size);
    }
    w->L->div->next(w, path);
    w->L->div->remove(w, x->mask, cur);
}

/* Barrier arrival. The warp waits (state BARRIER) until func_cta_try_release. With a
 * policy that parks paths (div_ops.wait), only the arriving path waits; the warp
 * waits once no path of it is runnable (all of its paths must arrive). */
static void do_barrier(func_warp *w, exec_ctx *x, const ptx_insn *in, uint32_t path, uint64_t lanes)
{
    func_cta *c = w->cta;
    int park = w->L->div->wait && in->sub != BAR_WARP_SYNC && in->sub != BAR_ARRIVE;
    if (!park)
        w->L->div->next(w, path);   /* lanes: the path's, read before */
    if (in->sub == BAR_WARP_SYNC)
        return;
    unsigned l0 = lanes ? (unsigned)__builtin_ctzll(lanes) : 0;
    int red = in->sub == BAR_RED_POPC || in->sub == BAR_RED_AND || in->sub == BAR_RED_OR;
    const ptx_operand *ida = red ? &in->ops[1] : &in->ops[0];
    const ptx_operand *cnt = red ? &in->ops[2] : &in->ops[1];
    uint32_t id = (uint32_t)ex_src(x, ida, l0) & 15;
    if (cnt->kind != OK_NONE && cnt->kind != OK_SINK)
        c->bar_expect[id] = (uint32_t)ex_src(x, cnt, l0);
    c->bar_arrived[id] += (uint32_t)__builtin_popcountll(lanes);
    if (red) {
        uint32_t acc = c->bar_red[id];
        if (c->bar_waiting[id] == 0 && c->bar_arrived[id] == (uint32_t)__builtin_popcountll(lanes))
            acc = in->sub == BAR_RED_AND ? 1 : 0;
        EX_FOR_LANES(lanes, l) {
            int p = ex_pred(x, &in->ops[3], l);
            if (in->sub == BAR_RED_POPC) acc += (uint32_t)p;
            else if (in->sub == BAR_RED_AND) acc &= (uint32_t)p;
            else acc |= (uint32_t)p;
        }
        c->bar_red[id] = acc;
        /* parked paths of this warp that arrived earlier keep their lanes */
        w->bar_mask = (park && w->bar_parked && w->bar_dst >= 0 ? w->bar_mask : 0) | lanes;
        w->bar_dst = (int32_t)in->ops[0].r;
    }
    if (in->sub == BAR_ARRIVE)
        return;
    c->bar_waiting[id]++;
    w->bar_id = (uint8_t)id;
    if (park) {
        w->bar_parked = 1;
        if (!w->L->div->wait(w, path))
            return;   /* other paths of the warp run on */
    }
    w->state = WARP_BARRIER;
}

uint32_t func_cta_try_release(func_cta *c, func_warp *warps, uint32_t n_warps)
{
    uint32_t released = 0;
    for (uint32_t id = 0; id < 16; id++) {
        if (!c->bar_waiting[id])
            continue;
        uint32_t need = c->bar_expect[id] ? c->bar_expect[id] : c->live_threads;
        if (c->bar_arrived[id] < need)
            continue;
        for (uint32_t i = 0; i < n_warps; i++) {
            func_warp *w = &warps[i];
            if (w->bar_id != id || !(w->state == WARP_BARRIER || (w->state == WARP_READY && w->bar_parked)))
                continue;
            if (w->bar_dst >= 0) {
                const func_frame *fr = &w->fr[w->nfr - 1];
                const exec_ctx x = {.r = w->regpool + fr->reg_pos, .ws = w->L->ws, .b64 = fr->b64};
                EX_FOR_LANES(w->bar_mask, l) ex_reg_set(&x, (uint32_t)w->bar_dst, l, c->bar_red[id]);
                w->bar_dst = -1;
            }
            if (w->bar_parked) {
                w->L->div->release(w);
                w->bar_parked = 0;
            }
            w->state = WARP_READY;
            settle(w);
            released++;
        }
        c->bar_arrived[id] = c->bar_expect[id] = c->bar_red[id] = c->bar_waiting[id] = 0;
    }
    return released;
}

void func_cta_init(func_cta *c, func_launch *L, uint32_t linear, uint8_t *shared)
{
    memset(c, 0, sizeof *c);
    c->L = L;
    c->linear = linear;
    c->ctaid[0] = linear % L->grid[0];
    c->ctaid[1] = (linear / L->grid[0]) % L->grid[1];
    c->ctaid[2] = linear / (L->grid[0] * L->grid[1]);
    c->smid = L->n_sm ? linear % L->n_sm : 0;
    c->shared = shared;
    c->live_threads = L->cta_threads;
    c->live_warps = L->cta_warps;
}

/* ---- one instruction ------------------------------------------------------------------ */
/* Executes one instruction of path e (a runnable path of w, in the innermost frame;
 * the record is the policy's and changes under us once the policy is told what the
 * instruction did: what is needed afterwards is read before). */
static inline __attribute__((always_inline)) exec_ctrl step_at(func_warp *w, const func_path *e,
                                                               exec_trace *tr)
{
    func_launch *L = w->L;
    const func_frame *fr = &w->fr[w->nfr - 1];
    const ptx_func *f = fr->f;
    uint32_t path = e->id;
    uint32_t pc = e->pc;
    uint64_t lanes = e->mask;
    exec_ctx x;
    x.r = w->regpool + fr->reg_pos;
    x.ws = L->ws;
    x.b64 = fr->b64;
    x.cc = w->cc;
    x.w = w;
    x.trace = tr;
    x.ctrl = EX_NEXT;
    x.taken = 0;
    if (pc >= f->n_insns) {
        x.mask = lanes;
        ex_fault(&x, f->n_insns ? &f->insns[f->n_insns - 1] : NULL, (unsigned)__builtin_ctzll(lanes),
                 "execution ran past the end of function '%s'", ptx_str(L->prog->m, f->name));
        return EX_FAULT;
    }
    const ptx_insn *in = &fr->insns[pc];   /* registers as rows (func.h func_prog) */
    uint64_t mask = lanes;
    if (in->guard >= 0) {
        uint64_t m = ex_nz_mask(&x, (uint32_t)in->guard, mask);
        mask = in->guard_neg ? ~m & mask : m;
    }
    x.mask = mask;
    L->warp_insts++;
    L->thread_insts += func_lane_count(lanes);
    L->mix[fr->mix[pc]]++;
    w->clock++;
    if (tr) {
        tr->n = 0;
        tr->rep = 0;
    }
    fr->fns[pc](&x, in);

    if (__builtin_expect(x.ctrl == EX_NEXT, 1)) {   /* (the common case before the switch) */
        if ((L->div == &div_simt_stack ? div_simt_next(&w->simt) : L->div->next(w, path)) == 0)
            settle(w);
        return EX_NEXT;
    }
    switch (x.ctrl) {
    case EX_NEXT:
        break;   /* (above) */
    case EX_BRANCH: {
        uint32_t reconv = f->cfg ? f->cfg->reconv[pc] : NO_PC;
        L->div->branch(w, path, pc, in->ops[0].r, x.taken, reconv);
        break;
    }
    case EX_CALL:
        x.ctrl = do_call(w, &x, in, path, pc);
        if (x.ctrl == EX_FAULT)
            return EX_FAULT;
        break;
    case EX_RET:
        do_ret(w, &x, in, path, pc);
        break;
    case EX_EXIT:
        L->div->next(w, path);
        do_exit(w, x.mask);
        break;
    case EX_BARRIER:
        do_barrier(w, &x, in, path, lanes);
        if (w->state == WARP_BARRIER)
            return EX_BARRIER;
        break;
    case EX_FAULT:
        w->state = WARP_FAULT;
        return EX_FAULT;
    }
    settle(w);
    if (w->state == WARP_DONE && --w->cta->live_warps == 0)
        w->L->ctas_done++;
    return x.ctrl;
}

/* A step the warp cannot take (no such path): a launch fault, the warp stops. */
static exec_ctrl no_path(func_warp *w, uint32_t path)
{
    w->state = WARP_FAULT;
    func_fault_set(w->L, WS_E_LAUNCH_FAILED, "kernel '%s': warp %u of CTA (%u,%u,%u) has no runnable path %u",
                   ptx_str(w->L->prog->m, w->L->kernel->name), w->wid, w->cta->ctaid[0],
                   w->cta->ctaid[1], w->cta->ctaid[2], path);
    return EX_FAULT;
}

exec_ctrl func_warp_step(func_warp *w, exec_trace *tr)
{
    const func_path *p = w->L->div == &div_simt_stack ? div_simt_top(&w->simt) : w->L->div->select(w);
    if (!p)
        return no_path(w, 0);
    return step_at(w, p, tr);
}

exec_ctrl func_warp_step_from(func_warp *w, const func_path *p, exec_trace *tr)
{
    return step_at(w, p, tr);
}

exec_ctrl func_warp_step_path(func_warp *w, uint32_t path, exec_trace *tr)
{
    const func_path *p = func_div_get(w, path);
    if (!p)
        return no_path(w, path);
    return step_at(w, p, tr);
}

/* ---- functional mode ------------------------------------------------------------------ */
static uint32_t warp_pc(const func_warp *w)
{
    func_path p;
    return func_warp_where(w, &p) ? p.pc : 0;
}

static uint32_t warp_line(const func_warp *w)
{
    func_path p;
    if (!func_warp_where(w, &p) || !w->nfr)
        return 0;
    const ptx_func *f = &w->L->prog->m->funcs[w->fr[w->nfr - 1].func];
    return p.pc < f->n_insns ? f->insns[p.pc].line : 0;
}

int func_warps_where(const func_launch *L, const func_warp *warps, uint32_t n_warps, char *buf,
                     size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (uint32_t i = 0; i < n_warps && n && k + 96 < n; i++) {
        const func_warp *w = &warps[i];
        if (!w->L || !w->cta || w->state == WARP_DONE || !w->nfr)
            continue;
        func_path p;
        if (!func_warp_where(w, &p))
            continue;
        const ptx_func *f = &L->prog->m->funcs[w->fr[w->nfr - 1].func];
        uint32_t line = p.pc < f->n_insns ? f->insns[p.pc].line : 0;
        int r = snprintf(buf + k, n - k, " CTA (%u,%u,%u) warp %u pc %u (line %u)%s", w->cta->ctaid[0],
                         w->cta->ctaid[1], w->cta->ctaid[2], w->wid, p.pc, line,
                         w->state == WARP_BARRIER ? " at barrier" : "");
        if (r < 0 || (size_t)r >= n - k)
            break;
        k += (size_t)r;
        if (w->state == WARP_BARRIER) {
            r = snprintf(buf + k, n - k, " %u", w->bar_id);
            if (r < 0 || (size_t)r >= n - k)
                break;
            k += (size_t)r;
        }
        if (k + 1 < n) {
            buf[k++] = ';';
            buf[k] = 0;
        }
    }
    return (int)k;
}

int func_launch_check(func_launch *L, const func_warp *warps, uint32_t n_warps, uint64_t cycle)
{
    int watchdog = L->watchdog && L->warp_insts > L->watchdog;
    int budget = L->budget_insts && L->warp_insts >= L->budget_insts;
    int stop = L->stop && *L->stop;
    if (!watchdog && !budget && !stop)
        return 0;
    if (L->fault.code)
        return 1;
    char where[400], at[48] = "";
    func_warps_where(L, warps, n_warps, where, sizeof where);
    if (cycle)
        snprintf(at, sizeof at, " at cycle %llu", (unsigned long long)cycle);
    const char *k = ptx_str(L->prog->m, L->kernel->name);
    if (watchdog)
        func_fault_set(L, WS_E_LAUNCH_FAILED,
                       "kernel '%s': watchdog: more than %llu warp instructions (func.watchdog_insts)%s; "
                       "warps at:%s", k, (unsigned long long)L->watchdog, at, where);
    else if (budget)
        func_fault_set(L, WS_E_STOPPED,
                       "kernel '%s': stopped by the instruction budget (sim.max_insts) after %llu "
                       "warp instructions%s; statistics are partial; warps at:%s", k,
                       (unsigned long long)L->warp_insts, at, where);
    else
        func_fault_set(L, WS_E_STOPPED,
                       "kernel '%s': stopped by signal %d after %llu warp instructions%s; "
                       "statistics are partial", k, (int)*L->stop, (unsigned long long)L->warp_insts, at);
    return 1;
}

int func_run_cta(func_launch *L, func_cta *c, func_warp *warps)
{
    uint32_t n = L->cta_warps;
    /* func_launch_check's conditions: the first instruction count at which the watchdog
     * or the budget is due (both set before the launch), and the stop request */
    uint64_t due = UINT64_MAX;
    if (L->watchdog && L->watchdog < UINT64_MAX)
        due = L->watchdog + 1;
    if (L->budget_insts && L->budget_insts < due)
        due = L->budget_insts;
    const volatile sig_atomic_t *stop = L->stop;
    for (uint32_t i = 0; i < n; i++)
        if (func_warp_init(&warps[i], L, c, i)) {
            func_fault_set(L, WS_E_OUT_OF_RESOURCES, "out of host memory for warp state");
            return -1;
        }
    for (;;) {
        int progress = 0;
        for (uint32_t i = 0; i < n; i++) {
            func_warp *w = &warps[i];
            while (w->state == WARP_READY) {
                const func_path *pa = L->div == &div_simt_stack ? div_simt_top(&w->simt)
                                                                 : L->div->select(w);   /* func_warp_step, inline */
                exec_ctrl r = pa ? step_at(w, pa, NULL) : no_path(w, 0);
                progress = 1;
                if (r == EX_FAULT || L->fault.code)
                    return -1;
                /* inside the loop: a warp looping forever never reaches a barrier
                 * (func_launch_check's three conditions, tested here without a call) */
                if ((L->warp_insts >= due || (stop && *stop)) && func_launch_check(L, warps, n, 0))
                    return -1;
                if (r == EX_BARRIER || r == EX_EXIT)
                    break;
            }
        }
        if (func_cta_try_release(c, warps, n))
            continue;
        if (c->live_warps == 0)
            return 0;
        if (!progress) {
            char buf[512];
            int k = 0;
            for (uint32_t i = 0; i < n && k < (int)sizeof buf - 64; i++)
                if (warps[i].state == WARP_BARRIER)
                    k += snprintf(buf + k, sizeof buf - (size_t)k, " warp %u at barrier %u (pc %u, line %u);",
                                  i, warps[i].bar_id, warp_pc(&warps[i]),
                                  warp_line(&warps[i]));
            func_fault_set(L, WS_E_DEADLOCK,
                           "kernel '%s': deadlock in CTA (%u,%u,%u): %u of %u threads alive, "
                           "barrier never completes:%s", ptx_str(L->prog->m, L->kernel->name),
                           c->ctaid[0], c->ctaid[1], c->ctaid[2], c->live_threads, L->cta_threads, buf);
            return -1;
        }
    }
}
