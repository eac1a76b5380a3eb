#!/usr/bin/env python3
"""Interrupts and budgets of `warpsim run` (issue 19):
  - SIGINT / SIGTERM during a long timing run: the statistics so far are printed and
    written to --json marked "partial", and the exit code is 128 + the signal;
  - --max-cycles / --max-insts end the run cleanly with partial statistics, exit code 5.
  - the same signals in a Driver API program run on its own with $WARPSIM_STATS (the
    bench driver BENCH): the process exits with 128 + the signal after writing the JSON
    of its launches so far, marked partial.
Usage: interrupt.py WARPSIM [BENCH]"""
import json, os, signal, subprocess, sys, tempfile, time

warpsim = sys.argv[1]
# a workload whose launch fails returns early without freeing its host arrays: not a
# simulator leak, so LeakSanitizer (sanitizer build) stays out of these exit codes
os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
tmp = tempfile.mkdtemp()
fails = 0


def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails += 1


def launches_in(js):
    try:
        return len(json.load(open(js)).get("launches", []))
    except (OSError, ValueError):
        return -1


def interrupt(cmd, sig, what, js, env=None):
    """Runs cmd and sends sig once it runs; (returncode, stdout, stderr), or None on a hang.
    A signal that lands before the first launch (a slow start: sanitizer build, a loaded
    machine) leaves no launch to record, which is correct but tests nothing of what matters
    here: the run is repeated with twice the delay, up to 32 s."""
    delay = 2.0
    while True:
        if os.path.exists(js):
            os.unlink(js)
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            check(False, "%s, signal %d: ends within 300 s" % (what, sig))
            return None
        if p.returncode != 128 + sig or launches_in(js) != 0 or delay >= 32:
            return p.returncode, out, err
        print("note %s, signal %d: it came before the first launch after %.0f s; again" % (what, sig, delay))
        delay *= 2


for sig in (signal.SIGINT, signal.SIGTERM):
    js = os.path.join(tmp, "sig%d.json" % sig)
    r = interrupt([warpsim, "run", "--mode", "timing", "--json", js, "atax", "--size", "default"],
                  sig, "warpsim run", js)
    if r is None:
        continue
    rc, out, err = r
    check(rc == 128 + sig, "signal %d: exit code %d (expected %d)" % (sig, rc, 128 + sig))
    check("PARTIAL statistics" in out, "signal %d: the text report says PARTIAL" % sig)
    check("interrupted by signal %d" % sig in err, "signal %d: stderr says interrupted" % sig)
    try:
        d = json.load(open(js))
        check(d.get("partial") is True, "signal %d: JSON has partial: true" % sig)
        check(len(d.get("launches", [])) >= 1, "signal %d: JSON holds the launches so far" % sig)
    except (OSError, ValueError) as e:
        check(False, "signal %d: JSON written (%s)" % (sig, e))

# (budgets well inside hs small: about 5,000 cycles and 20,544 warp instructions)
for opt, val, key in (("--max-cycles", "3000", "sim.max_cycles"), ("--max-insts", "3000", "sim.max_insts")):
    js = os.path.join(tmp, opt[2:] + ".json")
    r = subprocess.run([warpsim, "run", "--mode", "timing", opt, val, "--json", js, "hs", "--size", "small"],
                       capture_output=True, text=True, timeout=300)
    check(r.returncode == 5, "%s: exit code %d (expected 5)" % (opt, r.returncode))
    check(key in r.stderr and "statistics are partial" in r.stderr, "%s: stderr names %s" % (opt, key))
    d = json.load(open(js))
    check(d.get("partial") is True, "%s: JSON has partial: true" % opt)
    # the budget covers the whole run: the last launch is the one stopped
    check(d["launches"][-1]["result"] == "stopped (partial statistics)", "%s: launch result stopped" % opt)
    if opt == "--max-cycles":
        c = sum(l["cycles"] for l in d["launches"])
        check(c == int(val), "%s: stopped at cycle %s of the run (%d)" % (opt, val, c))
    else:
        # several warps issue per cycle: the timing model stops within one cycle of it
        w = sum(l["warp_insts"] for l in d["launches"])
        check(int(val) <= w < int(val) + 100, "%s: stopped after %d warp instructions (budget %s)" % (opt, w, val))

# a Driver API program on its own: the library's handler (api.h) stops and saves
if len(sys.argv) > 2:
    for sig in (signal.SIGINT, signal.SIGTERM):
        js = os.path.join(tmp, "drv%d.json" % sig)
        env = dict(os.environ, WARPSIM_MODE="timing", WARPSIM_STATS=js)
        r = interrupt([sys.argv[2], "--size", "default"], sig, "driver program", js, env)
        if r is None:
            continue
        rc, out, err = r
        check(rc == 128 + sig, "driver program, signal %d: exit code %d" % (sig, rc))
        check("interrupted by signal %d" % sig in err, "driver program, signal %d: stderr says interrupted" % sig)
        try:
            d = json.load(open(js))
            # in a launch (cut) or between two (the run marked interrupted)
            check(d.get("partial") is True and (d["launches"][-1]["result"].startswith("stopped") or
                                                "interrupted by signal %d" % sig in d.get("stopped", "")),
                  "driver program, signal %d: JSON partial, last launch stopped or run interrupted" % sig)
        except (OSError, ValueError, KeyError, IndexError) as e:
            check(False, "driver program, signal %d: JSON written (%s)" % (sig, e))

# a budget that is not reached changes nothing
r = subprocess.run([warpsim, "run", "--mode", "timing", "--max-cycles", "100000000", "hs", "--size", "small"],
                   capture_output=True, text=True, timeout=300)
check(r.returncode == 0 and "PARTIAL" not in r.stdout, "a budget not reached: exit 0, complete statistics")
sys.exit(1 if fails else 0)
