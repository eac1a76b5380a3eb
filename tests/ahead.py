#!/usr/bin/env python3
"""The L2 and DRAM domains ahead of the crossbar (mem.l2_ahead) are a host mechanism:
every workload at `small` size in timing mode with mem.l2_ahead=true and =false under
the configurations where it runs; the JSON reports must be identical once host fields
(host_ahead_l2_cycles and host_ahead_dram_cycles among them) and the key itself are
stripped. So that the comparison cannot pass vacuously, every run with it on must report
L2 cycles run ahead, and each configuration DRAM cycles too; where it is switched off
(a directory protocol, a trace, instruction budgets) none may be reported;
under a cycle budget the runs stop at the budget's last cycle. The l2thread
configurations run the runs on the partition thread (mem.l2_thread, with --threads 2 or
3), each of which must report runs handed to it (host_l2_thread_runs). See
docs/ARCHITECTURE.md, "Memory partitions a pipeline's depth ahead of the crossbar" and
"The partition thread".

    tests/ahead.py WARPSIM [--jobs J] [--configs NAME...] [--only WORKLOAD...]
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys, tempfile

# small queues at an L2 slower than the crossbar and DRAM not a multiple of either
CLOCKS = ["--set", "gpu.core_mhz=1000", "--set", "icnt.mhz=733", "--set", "l2.mhz=650",
          "--set", "gpu.mem_mhz=1375", "--set", "l2.in_queue=2", "--set", "l2.out_queue=7",
          "--set", "l2.pipeline=6"]
CONFIGS = {
    "gtx480": [],                                      # the default preset (pipeline 120)
    "qv100":  ["--config", "qv100"],                   # pipeline 160, DRAM slower than the core
    # ports stalled behind full input queues, and reply queues within a fill's pushes of
    # full (ports 1 + mshr_merges 4 of 8) often: the crossbar's replay of the bank's
    # takings and the stop before a bank cycle that could block
    "smallq": ["--set", "l2.in_queue=1", "--set", "l2.out_queue=8"],
    # small queues at an L2 slower than the crossbar and DRAM not a multiple of either
    # (L2 cycles between interconnect cycles: the serial order's ties), and a short
    # pipeline (6 L2 cycles: runs of up to 6 core cycles)
    "clocks": CLOCKS,
    # the banks of a partition behind one crossbar port (icnt.port_per_bank false): a
    # stalled port waits for the bank of its head request
    "hd7970": ["--config", "hd7970", "--set", "l2.in_queue=2"],
    # DRAM work at every launch's end (refreshes, write-backs of a small L2): none of it
    # may run ahead into a launch that has ended
    "refresh": ["--set", "dram.refresh=true", "--set", "dram.trefi=300", "--set", "l2.size=8192"],
    # a cycle budget (memsys.h horizon): no L2 or DRAM cycle beyond its last one, in the
    # first launch or a later one (exit 5: stopped; 0: the workload ended before it)
    "budget": ["--max-cycles", "20000"],
    # two host threads with every SM phase on the team: the SMs' cycles in parallel, the
    # memory system's (and its runs ahead) in the serial tick
    "threads": ["--threads", "2", "--set", "sim.host_threads_adapt=false", "--set", "mem.l2_thread=false"],
    # the runs on a host thread of their own (mem.l2_thread, the second of --threads 2),
    # and with the SMs on two more (--threads 3, every SM phase on the team): against the
    # serial model without running ahead, on both presets
    "l2thread": ["--threads", "2", "--set", "sim.host_threads_adapt=false"],
    # the same under the adaptive choice: the partition thread paused and resumed as the
    # slices change ways (team, alone beside it, serial)
    "l2thread-adapt": ["--threads", "2"],
    "l2thread3": ["--threads", "3", "--set", "sim.host_threads_adapt=false"],
    "l2thread-hd7970": ["--config", "hd7970", "--threads", "2", "--set", "l2.in_queue=2"],
    # the runs' reply side on the partition thread with reply queues often full: its runs
    # do not stop for banks asleep on them or near full (B's own pops rouse them and make
    # room, in the serial order), at equal clocks and at clocks that are no multiples
    "l2thread-smallq": ["--threads", "2", "--set", "sim.host_threads_adapt=false",
                        "--set", "mem.l2_thread_reply=thread",
                        "--set", "l2.in_queue=1", "--set", "l2.out_queue=8"],
    "l2thread-clocks": ["--threads", "2", "--set", "sim.host_threads_adapt=false",
                        "--set", "mem.l2_thread_reply=thread"] + CLOCKS,
}
EXITS = {"budget": (0, 5)}

# where it is off, whatever mem.l2_ahead says: (name, options, the exit status expected)
OFF = [
    ("moesi", ["--set", "mem.protocol=moesi"], 0),
    ("nmoesi", ["--set", "mem.protocol=nmoesi"], 0),
    ("max-insts", ["--max-insts", "3000"], 5),
    ("watchdog", ["--set", "func.watchdog_insts=100000000"], 0),
    ("trace", ["--set", "mem.trace_l1d={d}/trace.txt"], 0),
]

# the host-field stripping, the comparison and the workload list of the bit-identity guard
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from golden import diff, strip, suite_options, suite_selection  # noqa: E402

HOST = ("host_ahead_l2_cycles", "host_ahead_dram_cycles", "host_l2_thread_runs")


def run(warpsim, d, wl, cname, args, on, rc=0):
    out = os.path.join(d, f"{wl}.{cname}.{int(on)}.json")
    # a workload whose launch a budget stops returns early without freeing its host
    # arrays: not a simulator leak, so LeakSanitizer (sanitizer build) stays out of those
    env = None
    if rc or cname in EXITS:
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    r = subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--json", out,
                        "--set", f"mem.l2_ahead={'true' if on else 'false'}"] + args
                       + [wl, "--size", "small", "--quiet"], capture_output=True, text=True,
                       env=env)
    if r.returncode not in EXITS.get(cname, (rc,)):
        return {"exit": r.returncode, "stderr": r.stderr[-300:]}, None
    j = json.load(open(out))
    # the cycles run ahead, summed over the launches (None: the report has no such field)
    n = [sum(l["mem"][k] for l in j["launches"]) if all(k in l["mem"] for l in j["launches"])
         else None for k in HOST]
    j = strip(j)
    j.pop("config_source", None)   # names the --set above
    j["config"]["mem"].pop("l2_ahead")
    return j, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    suite_options(ap)
    a = ap.parse_args()
    wls, cfgs = suite_selection(a, CONFIGS)
    jobs = [(w, c, v, on) for w in wls for c, v in cfgs.items() for on in (True, False)]
    bad = 0
    with tempfile.TemporaryDirectory() as d, cf.ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(lambda t: run(a.warpsim, d, *t), jobs))
        off = list(ex.map(lambda t: run(a.warpsim, d, "gups", "off." + t[0],
                                        [x.format(d=d) for x in t[1]], True, t[2]), OFF))
    tot = {c: [0, 0, 0] for c in cfgs}
    for i in range(0, len(jobs), 2):
        w, c = jobs[i][:2]
        (x, nx), (y, ny) = res[i], res[i + 1]
        why = [f"exit {j['exit']}: {j['stderr']}" for j in (x, y) if "exit" in j]
        if not why:
            dd = diff(y, x)
            if dd:
                why.append(f"{len(dd)} differences with mem.l2_ahead on (ref: off), first: "
                           + "; ".join(dd[:3]))
            if ny[:2] != [None, None]:
                why.append(f"cycles run ahead reported with mem.l2_ahead=false: {ny}")
            if None in nx[:2] or not nx[0]:
                why.append(f"no L2 cycles ran ahead ({nx}): nothing was compared")
            else:
                tot[c][0] += nx[0]
                tot[c][1] += nx[1]
                tot[c][2] += nx[2] or 0
        if why:
            bad += 1
            print(f"ahead: {w} {c}: " + "; ".join(why))
    for c, (l2, dr, th) in tot.items():
        print(f"ahead: {c}: {l2} L2 and {dr} DRAM cycles ran ahead"
              + (f", {th} runs on the partition thread" if c.startswith("l2thread") else ""))
        if not dr:
            bad += 1
            print(f"ahead: {c}: no DRAM cycles ran ahead")
        if c.startswith("l2thread") and not th:
            bad += 1
            print(f"ahead: {c}: no run went to the partition thread (mem.l2_thread)")
    for (name, _, _), (j, n) in zip(OFF, off):
        if "exit" in j or n[:2] != [None, None]:
            bad += 1
            print(f"ahead: gups {name}: " + (f"exit {j['exit']}: {j['stderr']}" if "exit" in j
                                            else f"cycles run ahead reported where it is off: {n}"))
    print(f"ahead: {len(jobs) // 2} runs compared, {len(cfgs)} configurations, {len(OFF)} "
          f"where it is off: {bad} failed")
    sys.exit(1 if bad else 0)


main()
