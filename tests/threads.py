#!/usr/bin/env python3
"""Parallel simulation gives the serial results: every workload at `small` size in timing
mode with --threads 1 and with --threads N (default 2) under several configurations; the
JSON reports must be identical once host-time fields are stripped (sim.host_threads is
one of them). With the detailed model, one of the N threads is the partition thread
(mem.l2_thread) and the SMs share the others; `smteam` gives all N to the SMs; `both`
shares the SM phases between the others and the partition thread; `replycaller` leaves
the crossbar's reply side to the calling thread during the partition thread's runs. See
docs/ARCHITECTURE.md, "Parallel simulation" and "The partition thread".

    tests/threads.py WARPSIM [--threads N] [--jobs J] [--configs NAME...] [--only WORKLOAD...]
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys, tempfile

CONFIGS = {
    "gtx480":  [],                                     # the default preset (Fermi, detailed memory)
    "hd7970":  ["--config", "hd7970"],                 # GCN: L1I and scalar cache shared by 4 CUs
    "simple":  ["--set", "mem.model=simple"],          # the shared bandwidth clock
    "moesi":   ["--set", "mem.protocol=moesi"],        # a directory: invalidations to other SMs
    # every thread on the SMs (with the detailed model one of them is otherwise the
    # partition thread: mem.l2_thread)
    "smteam":  ["--set", "mem.l2_thread=false"],
    # the SM phases shared by the calling thread and the partition thread, which runs
    # its share between its L2 and DRAM cycles (sim.host_way=both, every slice)
    "both":    ["--set", "sim.host_way=both"],
    # the crossbar's reply side left to the calling thread during the partition thread's
    # runs (mem.l2_thread_reply=caller; the other configurations start with it on the
    # partition thread, and mem.l2_thread_reply=auto moves it by host time)
    "replycaller": ["--set", "mem.l2_thread_reply=caller"],
}


# the host-field stripping and the workload list of the bit-identity guard
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from golden import strip, suite_options, suite_selection  # noqa: E402


SHARES = {}   # (workload, configuration, threads): SM shares the partition thread ran


def run(warpsim, d, wl, cname, args, threads):
    out = os.path.join(d, f"{wl}.{cname}.{threads}.json")
    # N threads: every cycle on all of them (no adaptive fall-back to one thread), so
    # that the parallel path is what runs; or every slice the way a configuration names
    # (sim.host_way: the adaptive machinery, its choice pinned)
    pin = any(x.startswith("sim.host_way=") for x in args)
    par = ["--set", "sim.host_threads_adapt=false"] if threads > 1 and not pin else []
    r = subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--json", out,
                        "--threads", str(threads)] + par + args + [wl, "--size", "small", "--quiet"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return {"exit": r.returncode, "stderr": r.stderr[-300:]}
    raw = json.load(open(out))
    SHARES[(wl, cname, threads)] = sum(l.get("mem", {}).get("host_l2_thread_shares", 0)
                                       for l in raw.get("launches", []))
    j = strip(raw)
    j.pop("config_source", None)   # names the --set above
    return j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("--threads", type=int, default=2)
    suite_options(ap)
    a = ap.parse_args()
    wls, cfgs = suite_selection(a, CONFIGS)
    jobs = [(w, c, v) for w in wls for c, v in cfgs.items()]
    bad = 0
    with tempfile.TemporaryDirectory() as d, cf.ThreadPoolExecutor(a.jobs) as ex:
        one = list(ex.map(lambda t: run(a.warpsim, d, *t, 1), jobs))
        many = list(ex.map(lambda t: run(a.warpsim, d, *t, a.threads), jobs))
        for (w, c, _), x, y in zip(jobs, one, many):
            if "exit" in x or x != y:
                bad += 1
                print(f"threads: {w} {c}: --threads {a.threads} differs from --threads 1"
                      + (f" (exit {x['exit']}: {x['stderr']})" if "exit" in x else ""))
    # the way `both` must have run shares on the partition thread somewhere in the suite
    # (in a given run the calling thread may have claimed them all)
    if "both" in cfgs:
        n = sum(v for (w, c, t), v in SHARES.items() if c == "both" and t == a.threads)
        print(f"threads: `both`: {n:.0f} SM shares ran on the partition thread")
        if not n:
            bad += 1
    print(f"threads: {len(jobs) - bad}/{len(jobs)} runs identical with --threads 1 and {a.threads}")
    sys.exit(1 if bad else 0)


main()
