#!/usr/bin/env python3
"""Compare L1D access traces of one SM: warpsim's (`--set mem.trace_l1d=FILE`) and GPGPU-Sim's
(tools/peer_l1trace.patch, PEER_L1TRACE=FILE). Tells a difference in the cache model from a
difference in the order in which the SM presents its accesses.

usage: tools/l1trace.py TRACE [TRACE...] [--until CYCLE[,CYCLE...]] [--sets 32] [--ways 4]
                        [--set-index fermi-hash|linear] [--line 128]

Each TRACE line: `cycle warp line_address outcome kind` (hex address; outcome hit, miss,
merged, bypass, or a refusal: csf, mshrf, mqf, resfail; kind load, store, atomic). For every
trace, over its load accesses that the cache accepted (up to --until, e.g. the first kernel's
last cycle), prints:
  - the hit rate the simulator reported (hits + merges: an access whose line is present or
    on its way);
  - the hit rate of a replay of the same access order through a plain LRU cache of the given
    geometry, allocating on a load miss (stores write through without allocating), and how
    often the replay agrees access by access: if the replay reproduces each simulator's own
    hits, the two caches behave alike and any difference between the simulators comes from
    the access order;
  - the distribution of LRU stack (reuse) distances in distinct lines, with the reported hit
    rate per bucket;
  - for loads of >= 16 lines in one warp instruction, how many other warps' such loads come
    between two of the same warp (the interleaving that sets the reuse distance), and how
    many of those touched a set of the warp's load, with the warp's hit rate for each count
    (its lines survive only while few loads compete for their sets).
"""
import argparse
import collections
import sys

REFUSED = {"csf", "mshrf", "mqf", "resfail"}


def fermi_hash(addr, sets):
    lower = (addr >> 7) & 0x1F
    upper = ((addr >> 13) & 7) | (((addr >> 17) & 1) << 3) | (((addr >> 19) & 1) << 4)
    s = lower ^ upper
    if sets == 64:
        s |= ((addr >> 12) & 1) << 5
    return s


def read(path, until):
    ev = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if p[:1] == ["#"] and len(p) > 1 and p[1].rstrip(":") in ("cold", "flush"):
                ev.append((None, 0, 0, "reset", ""))   # the L1D is empty from here on
                continue
            if len(p) < 5 or not p[0].isdigit():
                continue
            t = int(p[0])
            if until is not None and t > until:
                continue
            ev.append((t, int(p[1]), int(p[2], 16), p[3], p[4]))
    return ev


def replay(ev, sets, ways, line, index):
    lru = collections.defaultdict(list)
    n = hits = agree = 0
    for _, _, a, oc, kind in ev:
        if oc == "reset":
            lru.clear()
            continue
        s = index(a)
        ln = a // line
        L = lru[s]
        if kind == "store" and oc == "hit" and ln in L:
            L.remove(ln)   # a write-through hit refreshes the line (no allocation on a miss)
            L.append(ln)
        if kind != "load":
            continue
        n += 1
        h = ln in L
        if h:
            hits += 1
            L.remove(ln)
        elif len(L) >= ways:
            L.pop(0)
        L.append(ln)
        agree += h == (oc in ("hit", "merged"))
    return n, hits, agree


def reuse(ev, line):
    stack = collections.OrderedDict()
    hist, hit = collections.Counter(), collections.Counter()
    edges = (32, 64, 128, 256)
    for _, _, a, oc, kind in ev:
        if kind != "load":
            continue
        ln = a // line
        if ln in stack:
            d = 0
            for k in reversed(stack):
                if k == ln:
                    break
                d += 1
            b = next((i for i, e in enumerate(edges) if d < e), len(edges))
            stack.move_to_end(ln)
        else:
            b = len(edges) + 1
            stack[ln] = True
        hist[b] += 1
        hit[b] += oc in ("hit", "merged")
    labels = [f"<{e}" for e in edges] + [f">={edges[-1]}", "first"]
    return [(labels[b], hist[b], hit[b]) for b in range(len(labels))]


def interleave(ev, line, index):
    runs = []
    for t, w, a, oc, kind in ev:
        if kind != "load":
            continue
        if not runs or runs[-1][0] != w:
            runs.append([w, set(), set(), 0, 0])
        r = runs[-1]
        r[1].add(a // line)
        r[2].add(index(a))
        r[3] += 1
        r[4] += oc in ("hit", "merged")
    big = [r for r in runs if len(r[1]) >= 16]
    last, gaps = {}, collections.Counter()
    shared, shared_hit = collections.Counter(), collections.Counter()
    for i, r in enumerate(big):
        w = r[0]
        if w in last:
            gaps[min(i - last[w] - 1, 12)] += 1
            # the loads between that touched a set of this one (they compete for its ways)
            k = min(sum(1 for b in big[last[w] + 1:i] if b[2] & r[2]), 8)
            shared[k] += 1
            shared_hit[k] += r[4] / r[3]
        last[w] = i
    return len(big), gaps, shared, shared_hit


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="+")
    ap.add_argument("--until", help="last cycle per trace (comma-separated, one per trace)")
    ap.add_argument("--sets", type=int, default=32)
    ap.add_argument("--ways", type=int, default=4)
    ap.add_argument("--line", type=int, default=128)
    ap.add_argument("--set-index", default="fermi-hash", choices=("fermi-hash", "linear"))
    ap.add_argument("--min-agree", type=float, help="exit 1 when a replay agrees with its trace "
                    "on less than this share of the loads (a test of the cache model)")
    a = ap.parse_args()
    bad = 0
    until = [int(x) for x in a.until.split(",")] if a.until else [None] * len(a.trace)
    if len(until) != len(a.trace):
        sys.exit("--until: one cycle per trace")
    if a.set_index == "fermi-hash":
        index = lambda addr: fermi_hash(addr, a.sets)
    else:
        index = lambda addr: (addr // a.line) % a.sets
    for path, u in zip(a.trace, until):
        allev = read(path, u)
        ev = [e for e in allev if e[3] not in REFUSED]
        refused = sum(1 for e in allev if e[3] in REFUSED)
        loads = [e for e in ev if e[4] == "load"]
        rep = sum(1 for e in loads if e[3] in ("hit", "merged"))
        n, h, agree = replay(ev, a.sets, a.ways, a.line, index)
        print(f"{path}: {len(loads)} loads accepted, {refused} refused attempts")
        if not n:
            continue
        print(f"  reported hit+merged {rep} ({rep / n:.3f}); LRU replay {h} ({h / n:.3f}), "
              f"agrees on {agree / n:.3f} of the accesses")
        if a.min_agree is not None and agree / n < a.min_agree:
            print(f"  FAIL: agreement {agree / n:.4f} < --min-agree {a.min_agree}")
            bad = 1
        print("  reuse distance (distinct lines): count (share) reported hit rate")
        for lab, c, hc in reuse(ev, a.line):
            print(f"    {lab:6s} {c:8d} ({c / n:.2f}) {hc / c if c else 0:.2f}")
        nb, gaps, shared, shared_hit = interleave(ev, a.line, index)
        tot = sum(gaps.values()) or 1
        mean = sum(k * v for k, v in gaps.items()) / tot
        print(f"  loads of >= 16 lines: {nb}; other warps' such loads between two of one warp: "
              f"mean {mean:.1f} (" + " ".join(f"{k}:{gaps[k] / tot:.2f}" for k in sorted(gaps)) + ")")
        print("  of those, the ones that touched a set of the warp's load: share, reported hit "
              "rate of the load\n    " + " ".join(
                  f"{k}:{shared[k] / tot:.3f}/{shared_hit[k] / shared[k]:.2f}" for k in sorted(shared)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
