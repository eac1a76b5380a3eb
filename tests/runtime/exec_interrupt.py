#!/usr/bin/env python3
"""SIGINT / SIGTERM while `warpsim exec` runs an unmodified CUDA program (issue 19): the
program's running launch stops, the program exits with 128 + the signal after its
statistics so far are written (JSON marked partial), and warpsim exec prints the partial
report and returns the same code. SIGINT goes to the whole process group (a terminal's
Ctrl-C); SIGTERM to warpsim exec alone (kill, a batch system), which passes it on.
Usage: exec_interrupt.py JSON WARPSIM_EXEC... -- [WRAPPER...] PROGRAM"""
import json, os, signal, subprocess, sys, time

js = sys.argv[1]
cmd = sys.argv[2:]
fails = 0


def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails += 1


sep = cmd.index("--")


def launches_in(path):
    try:
        return len(json.load(open(path)).get("launches", []))
    except (OSError, ValueError):
        return -1


for sig, group in ((signal.SIGINT, True), (signal.SIGTERM, False)):
    full = cmd[:sep] + ["--mode", "timing", "--json", js] + cmd[sep:] + ["100000", "4"]
    # a signal before the first launch (slow start: sanitizer build, loaded machine) leaves
    # no launch to check: repeat with twice the delay, up to 32 s
    delay = 3.0
    while True:
        if os.path.exists(js):
            os.unlink(js)
        p = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        time.sleep(delay)
        if group:
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            break
        if p.returncode != 128 + sig or launches_in(js) != 0 or delay >= 32:
            break
        print("note signal %d: it came before the first launch after %.0f s; again" % (sig, delay))
        delay *= 2
    if p.returncode is None or p.returncode < 0 and -p.returncode == signal.SIGKILL:
        check(False, "signal %d: the program ends within 300 s" % sig)
        continue
    check(p.returncode == 128 + sig, "signal %d: exit code %d (expected %d)" % (sig, p.returncode, 128 + sig))
    check("interrupted by signal %d" % sig in err, "signal %d: the program says it was interrupted" % sig)
    check("PARTIAL statistics" in out, "signal %d: warpsim exec prints the partial report" % sig)
    check("spin: PASS" not in out, "signal %d: the program did not run to its end" % sig)
    try:
        d = json.load(open(js))
        check(d.get("partial") is True, "signal %d: JSON has partial: true" % sig)
        # the signal lands in a launch (cut: its result says stopped) or between two, in
        # the program's host check (every launch complete, the run marked interrupted)
        ls = d.get("launches", [])
        check(len(ls) >= 1 and (ls[-1]["result"].startswith("stopped") or
                                "interrupted by signal %d" % sig in d.get("stopped", "")),
              "signal %d: JSON holds the launches so far, the last one stopped or the run "
              "marked interrupted" % sig)
    except (OSError, ValueError) as e:
        check(False, "signal %d: JSON written (%s)" % (sig, e))
sys.exit(1 if fails else 0)
