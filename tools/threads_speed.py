#!/usr/bin/env python3
"""Speed-up of the parallel timing simulation (sim.host_threads, docs/ARCHITECTURE.md):
runs each workload in timing mode with --threads 1 and with --threads N and prints wall
and CPU seconds, the speed-up, and the serial fraction measured in the --threads 1 run
(host_seconds minus host_sm_phase_seconds, over host_seconds) with the speed-up that
Amdahl's law allows for it on N threads (hand-over costs not counted), and which ways the
adaptive choice ran in the --threads N run (sim.host_threads_adapt: per cent of the cycle
loop's iterations on the team / alone beside the partition thread / serial; the
host_iters_* statistics).

    tools/threads_speed.py WARPSIM [--threads N] [--size default] [--reps R] [WORKLOAD...]

Default workloads: the suite's long ones (atax bicg mvt gups blk stc). On a shared
machine wall clock depends on the load: run it on an otherwise idle one (the CPU seconds
show how much the extra threads cost; a speed-up needs N idle cores).
"""
import argparse, json, os, resource, subprocess, tempfile, time


def run(warpsim, wl, size, threads, d):
    out = os.path.join(d, f"{wl}.{threads}.json")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--quiet", "--json", out,
                    "--threads", str(threads), wl, "--size", size], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    j = json.load(open(out))
    host = sum(l.get("host_seconds", 0) for l in j["launches"])
    sm = sum(l.get("host_sm_phase_seconds", 0) for l in j["launches"])
    ways = [sum(l.get("host_iters_" + k, 0) for l in j["launches"]) for k in ("team", "alone", "serial", "both")]
    return wall, cpu, host, sm, ways


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("workloads", nargs="*")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--size", default="default")
    ap.add_argument("--reps", type=int, default=1)
    a = ap.parse_args()
    wls = a.workloads or ["atax", "bicg", "mvt", "gups", "blk", "stc"]
    n = a.threads
    print(f"{'workload':10} {'wall1':>7} {'wall'+str(n):>7} {'speedup':>7} {'cpu1':>7} "
          f"{'cpu'+str(n):>7} {'serial':>7} {'amdahl':>7}  ways t/a/s/b %")
    with tempfile.TemporaryDirectory() as d:
        for w in wls:
            best = {}
            for _ in range(a.reps):
                for t in (1, n):
                    r = run(a.warpsim, w, a.size, t, d)
                    if t not in best or r[0] < best[t][0]:
                        best[t] = r
            w1, c1, h1, s1, _ = best[1]
            wn, cn, _, _, ways = best[n]
            tot = sum(ways)
            way = "/".join(f"{100 * x / tot:.0f}" for x in ways) if tot else "-"
            ser = (h1 - s1) / h1 if h1 > 0 else 0.0
            amd = 1.0 / (ser + (1 - ser) / n)
            print(f"{w:10} {w1:7.2f} {wn:7.2f} {w1 / wn:7.2f} {c1:7.2f} {cn:7.2f} "
                  f"{100 * ser:6.1f}% {amd:7.2f}  {way}")


main()
