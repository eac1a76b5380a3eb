#!/usr/bin/env python3
"""Writes into PTX files the registers per thread that ptxas allocates to each function.

For each FILE.ptx, runs `ptxas -v --gpu-name ARCH` and ends the file with one
`.pragma "warpsim.regs NAME N";` per function (replacing an earlier block). warpsim's
occupancy uses them (core.regs_source = ptxas), as GPGPU-Sim takes its register counts from
`ptxas -v`. NVIDIA's tools accept the pragmas silently.

Usage: tools/ptxas_regs.py [--ptxas PATH] [--arch sm_75] FILE.ptx...
The default arch sm_75 is the oldest target CUDA 13's ptxas accepts, the one GPGPU-Sim 4.2
built with CUDA 13 uses for its occupancy.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARKER = "// warpsim.regs: registers per thread from"
PRAGMA = re.compile(r'^\.pragma "warpsim\.regs ')


def strip_block(text):
    """The PTX without an earlier warpsim.regs block (marker line, pragmas, blank lines)."""
    out, skip = [], False
    for line in text.splitlines():
        if line.startswith(MARKER):
            skip = True
            continue
        if skip and PRAGMA.match(line):
            continue
        skip = False
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n"


def ptxas_regs(ptxas, arch, body):
    """[(function, registers)] in ptxas's order, from `ptxas -v` of the PTX text body."""
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(body)
        path = f.name
    try:
        r = subprocess.run([ptxas, "-v", "--gpu-name", arch, path, "-o", os.devnull],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode:
        sys.exit(f"ptxas failed:\n{r.stderr}")
    regs, fn = [], None
    for line in r.stderr.splitlines() + r.stdout.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([^' ]+)'?", line)
        if m:
            fn = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and fn and fn not in dict(regs):
            regs.append((fn, int(m.group(1))))
    return regs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--arch", default="sm_75")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if not os.access(a.ptxas, os.X_OK):
        sys.exit("ptxas_regs.py: ptxas not found (--ptxas PATH)")
    v = subprocess.run([a.ptxas, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release ([0-9.]+)", v)
    version = m.group(1) if m else "?"
    for path in a.files:
        with open(path) as f:
            body = strip_block(f.read())
        regs = ptxas_regs(a.ptxas, a.arch, body)
        with open(path, "w") as f:
            f.write(body + "\n" + f"{MARKER} ptxas -v --gpu-name {a.arch} (CUDA {version})\n")
            for fn, n in regs:
                f.write(f'.pragma "warpsim.regs {fn} {n}";\n')
        print(f"{path}: " + ", ".join(f"{fn} {n}" for fn, n in regs))


if __name__ == "__main__":
    main()
