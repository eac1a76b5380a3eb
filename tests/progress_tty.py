#!/usr/bin/env python3
"""The progress line of `warpsim run` (src/api/progress.h): drawn on a terminal, absent
when stderr is not one, absent with --quiet (before the workload, or the workload's).

    tests/progress_tty.py WARPSIM

A pseudo-terminal (Python's pty) stands in for the terminal; WARPSIM_PROGRESS_DELAY=0
lifts the one-second delay so a small run shows the line."""
import os
import pty
import subprocess
import sys

LINE = b"warpsim: launch 1 "


def on_pty(argv, env):
    """(exit code, everything written to the terminal) of argv run on a pty."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    out = b""
    while True:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        out += b
    _, st = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(st), out


def main():
    ws = sys.argv[1]
    env = dict(os.environ, WARPSIM_PROGRESS_DELAY="0")
    run = [ws, "run", "--mode", "timing", "--no-report"]
    fails = []
    rc, out = on_pty(run + ["mvt", "--size", "small"], env)
    if rc != 0 or LINE not in out or b"CTAs " not in out or b"warp inst/s" not in out or b"ETA" not in out:
        fails.append(f"on a terminal: no progress line (exit {rc}): {out[-400:]!r}")
    if not out.rstrip().endswith(b"mvt [small]: PASS"):
        fails.append(f"the line is not erased before the workload's output: {out[-200:]!r}")
    for extra, what in ((["--quiet"], "--quiet"), ([], "the workload's --quiet")):
        wl = ["mvt", "--size", "small"] + (["--quiet"] if not extra else [])
        rc, out = on_pty(run + extra + wl, env)
        if LINE in out:
            fails.append(f"{what}: the progress line is drawn")
    r = subprocess.run(run + ["mvt", "--size", "small"], capture_output=True, env=env)
    if LINE in r.stderr or b"\033[K" in r.stderr:
        fails.append("stderr not a terminal: the progress line is drawn")
    for f in fails:
        print("FAIL:", f)
    print("progress line: " + ("ok" if not fails else "FAILED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
