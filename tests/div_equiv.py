#!/usr/bin/env python3
"""Every workload's functional result under the path-table policies equals the SIMT stack's.

For each workload (small size, functional mode) and each path priority (min-pc, majority, las),
the run must pass its CPU check exactly as under func.divergence=simt-stack, and — where the
order in which paths run cannot change what a thread executes — every thread must execute the
same instructions: thread_insts (active lanes summed over issued instructions) of every launch
must be identical. Only the number of *warp* instructions (how lanes were grouped) may change.

    tests/div_equiv.py WARPSIM [--jobs N] [--mode functional|timing] [--skip-stalled] [--only WORKLOAD...]

--mode timing runs the timing model (functional execution at issue, the path the timing
model picks); --skip-stalled adds func.path_skip_stalled=true to the path-table runs.
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys, tempfile

PRIOS = ["min-pc", "majority", "las"]

# Workloads whose threads' own instruction streams depend on the interleaving of threads of a
# warp (spin locks, control flow on atomics' return values), so thread_insts may differ (the
# CPU check must still pass). None of the 36 today: every one executes identical thread
# instructions under every priority, in functional and in timing mode.
ORDER_DEPENDENT = set()


def workloads(warpsim):
    out = subprocess.run([warpsim, "list"], capture_output=True, text=True, check=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("workloads"):
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            names.append(line.split()[0])
    return names


def run(warpsim, tmp, wl, prio, mode, skip):
    js = os.path.join(tmp, f"{wl}.{prio or 'simt'}.json")
    args = [warpsim, "run", "--mode", mode, "--no-report", "--json", js]
    if prio:
        args += ["--set", "func.divergence=path-table", "--set", f"func.path_priority={prio}"]
        if skip:
            args += ["--set", "func.path_skip_stalled=true"]
    r = subprocess.run(args + [wl, "--size", "small"], capture_output=True, text=True)
    checks = [l for l in r.stdout.splitlines() if "PASS" in l or "FAIL" in l]
    insts = None
    if r.returncode == 0:
        insts = [l["thread_insts"] for l in json.load(open(js))["launches"]]
    return wl, prio, r.returncode, checks, insts, r.stderr[-500:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--mode", default="functional", choices=("functional", "timing"))
    ap.add_argument("--skip-stalled", action="store_true")
    a = ap.parse_args()
    wls = a.only or workloads(a.warpsim)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(a.jobs) as ex:
        res = {(w, p): r for w, p, *r in ex.map(lambda t: run(a.warpsim, tmp, *t, a.mode, a.skip_stalled),
                                                [(w, p) for w in wls for p in [None] + PRIOS])}
    for w in wls:
        rc0, chk0, ins0, err0 = res[(w, None)]
        if rc0 != 0:
            print(f"{w}: simt-stack run failed ({rc0}): {err0}")
            bad += 1
            continue
        for p in PRIOS:
            rc, chk, ins, err = res[(w, p)]
            if rc != 0 or chk != chk0:
                print(f"{w} [{p}]: exit {rc}, checks {chk} vs simt-stack {chk0}: {err}")
                bad += 1
            elif w not in ORDER_DEPENDENT and ins != ins0:
                print(f"{w} [{p}]: thread_insts {ins} != simt-stack {ins0}")
                bad += 1
    print(f"div_equiv ({a.mode}{', path_skip_stalled' if a.skip_stalled else ''}): {len(wls)} workloads x {len(PRIOS)} path priorities, {bad} differences")
    sys.exit(1 if bad else 0)


main()
