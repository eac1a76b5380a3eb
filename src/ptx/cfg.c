/* cfg.c - basic blocks, dominators, post-dominators, natural loops.
 *
 * Dominators use the iterative algorithm of Cooper, Harvey and Kennedy over reverse
 * post-order; post-dominators run the same algorithm on the reversed graph rooted at
 * a virtual exit node that every ret/exit block feeds. Loops are natural loops of
 * back edges (u -> h with h dominating u); loops sharing a header are merged.
 *
 * Branch regions (SPEC section 3's BDepth): a conditional branch's region is every
 * block reachable from its successors before its immediate post-dominator and
 * dominated by the branch block. Loop-control branches (a back edge, or a branch
 * leaving its loop) open no region: the loop depth already counts them.
 */
#include "ptx/cfg.h"

#include <stdlib.h>
#include <string.h>

static int ends_block(const ptx_insn *in)
{
    return in->op == OP_BRA || in->op == OP_BRX || in->op == OP_RET || in->op == OP_EXIT ||
           in->op == OP_TRAP;
}

static int exits(const ptx_insn *in)
{
    return in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP || in->op == OP_BRX;
}

typedef struct {
    uint32_t n;          /* blocks; node n is the virtual exit                   */
    uint32_t *succ_off;  /* CSR adjacency of the graph being analysed           */
    uint32_t *succ;
    uint32_t *pred_off;
    uint32_t *pred;
} graph;

static void graph_free(graph *g)
{
    free(g->succ_off);
    free(g->succ);
    free(g->pred_off);
    free(g->pred);
}

/* Builds CSR successor and predecessor lists from an edge list. */
static int graph_build(graph *g, uint32_t n, const uint32_t *from, const uint32_t *to, uint32_t ne)
{
    g->n = n;
    g->succ_off = calloc(n + 2, sizeof *g->succ_off);
    g->pred_off = calloc(n + 2, sizeof *g->pred_off);
    g->succ = malloc((ne + 1) * sizeof *g->succ);
    g->pred = malloc((ne + 1) * sizeof *g->pred);
    if (!g->succ_off || !g->pred_off || !g->succ || !g->pred)
        return -1;
    for (uint32_t e = 0; e < ne; e++) {
        g->succ_off[from[e] + 1]++;
        g->pred_off[to[e] + 1]++;
    }
    for (uint32_t i = 0; i <= n; i++) {
        g->succ_off[i + 1] += g->succ_off[i];
        g->pred_off[i + 1] += g->pred_off[i];
    }
    uint32_t *fs = calloc(n + 1, sizeof *fs), *fp = calloc(n + 1, sizeof *fp);
    if (!fs || !fp) {
        free(fs);
        free(fp);
        return -1;
    }
    for (uint32_t e = 0; e < ne; e++) {
        g->succ[g->succ_off[from[e]] + fs[from[e]]++] = to[e];
        g->pred[g->pred_off[to[e]] + fp[to[e]]++] = from[e];
    }
    free(fs);
    free(fp);
    return 0;
}

/* Dominator tree over nodes [0, n] from root; forward = 1 uses succ, 0 uses pred
 * (post-dominators). idom[v] = UINT32_MAX for nodes unreachable from root. */
static int dominators(const graph *g, uint32_t root, int forward, uint32_t *idom)
{
    uint32_t n = g->n + 1;
    uint32_t *order = malloc(n * sizeof *order), *rpo = malloc(n * sizeof *rpo);
    uint32_t *stack = malloc(n * sizeof *stack), *it = calloc(n, sizeof *it);
    uint8_t *seen = calloc(n, 1);
    if (!order || !rpo || !stack || !it || !seen) {
        free(order); free(rpo); free(stack); free(it); free(seen);
        return -1;
    }
    const uint32_t *off = forward ? g->succ_off : g->pred_off;
    const uint32_t *adj = forward ? g->succ : g->pred;
    uint32_t no = 0, sp = 0;
    stack[sp++] = root;
    seen[root] = 1;
    while (sp) {  /* iterative DFS for post-order */
        uint32_t v = stack[sp - 1];
        if (off[v] + it[v] < off[v + 1]) {
            uint32_t w = adj[off[v] + it[v]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp++] = w;
            }
        } else {
            order[no++] = v;
            sp--;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        idom[i] = UINT32_MAX;
        rpo[i] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < no; i++)
        rpo[order[i]] = no - 1 - i;  /* rpo number */
    idom[root] = root;
    const uint32_t *poff = forward ? g->pred_off : g->succ_off;
    const uint32_t *padj = forward ? g->pred : g->succ;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = no; i-- > 0;) {  /* reverse post-order */
            uint32_t v = order[i];
            if (v == root)
                continue;
            uint32_t nd = UINT32_MAX;
            for (uint32_t k = poff[v]; k < poff[v + 1]; k++) {
                uint32_t p = padj[k];
                if (idom[p] == UINT32_MAX)
                    continue;
                if (nd == UINT32_MAX) {
                    nd = p;
                    continue;
                }
                uint32_t a = p, b = nd;
                while (a != b) {
                    while (rpo[a] > rpo[b]) a = idom[a];
                    while (rpo[b] > rpo[a]) b = idom[b];
                }
                nd = a;
            }
            if (nd != idom[v]) {
                idom[v] = nd;
                changed = 1;
            }
        }
    }
    free(order); free(rpo); free(stack); free(it); free(seen);
    return 0;
}

static int dominates(const uint32_t *idom, uint32_t a, uint32_t b)
{
    while (b != UINT32_MAX) {
        if (a == b)
            return 1;
        if (idom[b] == b)
            return 0;
        b = idom[b];
    }
    return 0;
}

void ptx_cfg_free(ptx_cfg *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->n_blocks; i++)
        free(c->blocks[i].pred);
    for (uint32_t i = 0; i < c->n_loops; i++)
        free(c->loops[i].blocks);
    free(c->blocks);
    free(c->block_of);
    free(c->reconv);
    free(c->loops);
    free(c->loop_depth);
    free(c->branch_depth);
    free(c);
}

int ptx_cfg_build(const ptx_module *m, ptx_func *f)
{
    (void)m;
    ptx_cfg_free(f->cfg);
    f->cfg = NULL;
    uint32_t ni = f->n_insns;
    ptx_cfg *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    f->cfg = c;
    c->block_of = malloc((ni + 1) * sizeof *c->block_of);
    c->reconv = malloc((ni + 1) * sizeof *c->reconv);
    c->loop_depth = calloc(ni + 1, 1);
    c->branch_depth = calloc(ni + 1, 1);
    uint8_t *leader = calloc(ni + 1, 1);
    if (!c->block_of || !c->reconv || !c->loop_depth || !c->branch_depth || !leader) {
        free(leader);
        return -1;
    }
    for (uint32_t i = 0; i < ni; i++)
        c->reconv[i] = UINT32_MAX;
    if (ni == 0) {
        free(leader);
        return 0;
    }
    /* blocks */
    leader[0] = 1;
    for (uint32_t i = 0; i < ni; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op == OP_BRA && in->ops[0].kind == OK_LABEL && in->ops[0].r < ni)
            leader[in->ops[0].r] = 1;
        if (ends_block(in) && i + 1 < ni)
            leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < ni; i++)
        nb += leader[i];
    c->n_blocks = nb;
    c->blocks = calloc(nb, sizeof *c->blocks);
    if (!c->blocks) {
        free(leader);
        return -1;
    }
    for (uint32_t i = 0, b = UINT32_MAX; i < ni; i++) {
        if (leader[i]) {
            b = b == UINT32_MAX ? 0 : b + 1;
            c->blocks[b].first = i;
        }
        c->blocks[b].last = i;
        c->block_of[i] = b;
    }
    free(leader);
    /* edges; node nb is the virtual exit */
    uint32_t cap = 3 * nb + 1, ne = 0;
    uint32_t *from = malloc(cap * sizeof *from), *to = malloc(cap * sizeof *to);
    if (!from || !to) {
        free(from);
        free(to);
        return -1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        cfg_block *bl = &c->blocks[b];
        const ptx_insn *in = &f->insns[bl->last];
        int cond = in->guard >= 0;
        bl->n_succ = 0;
        if (in->op == OP_BRA && in->ops[0].kind == OK_LABEL && in->ops[0].r < ni) {
            bl->succ[bl->n_succ++] = c->block_of[in->ops[0].r];
            if (cond && bl->last + 1 < ni && c->block_of[bl->last + 1] != bl->succ[0])
                bl->succ[bl->n_succ++] = c->block_of[bl->last + 1];
        } else if (!exits(in) || cond) {
            if (bl->last + 1 < ni)
                bl->succ[bl->n_succ++] = c->block_of[bl->last + 1];
        }
        for (uint32_t k = 0; k < bl->n_succ; k++) {
            from[ne] = b;
            to[ne++] = bl->succ[k];
        }
        if (exits(in) || bl->last + 1 >= ni) {
            from[ne] = b;
            to[ne++] = nb;
        }
    }
    graph g = {0};
    uint32_t *idom = malloc((nb + 1) * sizeof *idom), *ipdom = malloc((nb + 1) * sizeof *ipdom);
    int rc = graph_build(&g, nb, from, to, ne);
    free(from);
    free(to);
    if (rc || !idom || !ipdom || dominators(&g, 0, 1, idom) || dominators(&g, nb, 0, ipdom)) {
        graph_free(&g);
        free(idom);
        free(ipdom);
        return -1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        cfg_block *bl = &c->blocks[b];
        bl->idom = idom[b] == UINT32_MAX ? b : idom[b];
        bl->ipdom = (ipdom[b] == UINT32_MAX || ipdom[b] == nb) ? CFG_EXIT : ipdom[b];
        bl->loop = -1;
        bl->n_pred = g.pred_off[b + 1] - g.pred_off[b];
        bl->pred = malloc((bl->n_pred + 1) * sizeof *bl->pred);
        if (!bl->pred) {
            graph_free(&g);
            free(idom);
            free(ipdom);
            return -1;
        }
        memcpy(bl->pred, &g.pred[g.pred_off[b]], bl->n_pred * sizeof *bl->pred);
        const ptx_insn *in = &f->insns[bl->last];
        if (in->op == OP_BRA)
            c->reconv[bl->last] = bl->ipdom == CFG_EXIT ? UINT32_MAX : c->blocks[bl->ipdom].first;
    }
    /* natural loops, one per header */
    uint8_t *inloop = calloc(nb, 1);
    uint32_t *work = malloc((nb + 1) * sizeof *work);
    c->loops = calloc(nb, sizeof *c->loops);
    if (!inloop || !work || !c->loops) {
        free(inloop); free(work); graph_free(&g); free(idom); free(ipdom);
        return -1;
    }
    for (uint32_t h = 0; h < nb; h++) {
        memset(inloop, 0, nb);
        uint32_t nw = 0, latch = UINT32_MAX;
        for (uint32_t k = g.pred_off[h]; k < g.pred_off[h + 1]; k++) {
            uint32_t u = g.pred[k];
            if (idom[u] != UINT32_MAX && dominates(idom, h, u)) {
                if (latch == UINT32_MAX)
                    latch = u;
                if (!inloop[u]) {
                    inloop[u] = 1;
                    work[nw++] = u;
                }
            }
        }
        if (latch == UINT32_MAX)
            continue;
        inloop[h] = 1;
        while (nw) {
            uint32_t v = work[--nw];
            if (v == h)
                continue;
            for (uint32_t k = g.pred_off[v]; k < g.pred_off[v + 1]; k++) {
                uint32_t p = g.pred[k];
                if (!inloop[p] && idom[p] != UINT32_MAX) {
                    inloop[p] = 1;
                    work[nw++] = p;
                }
            }
        }
        cfg_loop *L = &c->loops[c->n_loops++];
        L->header = h;
        L->latch = latch;
        L->parent = -1;
        for (uint32_t b = 0; b < nb; b++)
            L->n_blocks += inloop[b];
        L->blocks = malloc(L->n_blocks * sizeof *L->blocks);
        if (!L->blocks) {
            free(inloop); free(work); graph_free(&g); free(idom); free(ipdom);
            return -1;
        }
        for (uint32_t b = 0, k = 0; b < nb; b++)
            if (inloop[b])
                L->blocks[k++] = b;
    }
    /* nesting: parent = smallest other loop containing this header */
    for (uint32_t i = 0; i < c->n_loops; i++) {
        cfg_loop *L = &c->loops[i];
        uint32_t best = UINT32_MAX;
        for (uint32_t j = 0; j < c->n_loops; j++) {
            if (j == i || c->loops[j].n_blocks <= L->n_blocks)
                continue;
            const cfg_loop *P = &c->loops[j];
            for (uint32_t k = 0; k < P->n_blocks; k++)
                if (P->blocks[k] == L->header) {
                    if (best == UINT32_MAX || P->n_blocks < c->loops[best].n_blocks)
                        best = j;
                    break;
                }
        }
        L->parent = best == UINT32_MAX ? -1 : (int32_t)best;
    }
    for (uint32_t i = 0; i < c->n_loops; i++) {
        uint32_t d = 1;
        for (int32_t p = c->loops[i].parent; p >= 0; p = c->loops[p].parent)
            d++;
        c->loops[i].depth = d;
        for (uint32_t k = 0; k < c->loops[i].n_blocks; k++) {
            cfg_block *bl = &c->blocks[c->loops[i].blocks[k]];
            if (bl->loop < 0 || c->loops[bl->loop].depth < d)
                bl->loop = (int32_t)i;
        }
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t d = c->blocks[b].loop < 0 ? 0 : c->loops[c->blocks[b].loop].depth;
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
            c->loop_depth[i] = (uint8_t)(d > 255 ? 255 : d);
    }
    /* conditional-branch regions */
    for (uint32_t b = 0; b < nb; b++) {
        const cfg_block *bl = &c->blocks[b];
        const ptx_insn *in = &f->insns[bl->last];
        if (in->op != OP_BRA || in->guard < 0 || bl->n_succ < 2)
            continue;
        int loop_ctl = 0;
        if (bl->loop >= 0) {
            const cfg_loop *L = &c->loops[bl->loop];
            for (uint32_t s = 0; s < bl->n_succ; s++) {
                int inside = 0;
                for (uint32_t k = 0; k < L->n_blocks; k++)
                    inside |= L->blocks[k] == bl->succ[s];
                if (!inside || bl->succ[s] == L->header)
                    loop_ctl = 1;
            }
        }
        if (loop_ctl)
            continue;
        memset(inloop, 0, nb);
        uint32_t nw = 0;
        /* a block is marked when pushed, so the stack never exceeds nb entries */
        for (uint32_t s = 0; s < bl->n_succ; s++) {
            uint32_t v = bl->succ[s];
            if (v != bl->ipdom && v != b && !inloop[v] && dominates(idom, b, v)) {
                inloop[v] = 1;
                work[nw++] = v;
            }
        }
        while (nw) {
            uint32_t v = work[--nw];
            for (uint32_t s = 0; s < c->blocks[v].n_succ; s++) {
                uint32_t u = c->blocks[v].succ[s];
                if (u != bl->ipdom && u != b && !inloop[u] && dominates(idom, b, u)) {
                    inloop[u] = 1;
                    work[nw++] = u;
                }
            }
        }
        for (uint32_t v = 0; v < nb; v++)
            if (inloop[v])
                for (uint32_t i = c->blocks[v].first; i <= c->blocks[v].last; i++)
                    if (c->branch_depth[i] < 255)
                        c->branch_depth[i]++;
    }
    free(inloop);
    free(work);
    graph_free(&g);
    free(idom);
    free(ipdom);
    return 0;
}
