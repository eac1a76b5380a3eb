#!/usr/bin/env python3
"""Real PTX files of any size (issue: files over 64 KB were refused as "cannot read").

Generates a PTX module over 1 MB (tests/host/host_vecadd.ptx's kernel plus thousands of
device functions) and passes it through every entry point that reads a file:
`warpsim ptx check`, `ptx analyze`, `ptx annotate`, and cuModuleLoad (host_vecadd, which
also launches the kernel and checks the result). Also checks that an unreadable file's
error says why.

    tests/bigptx.py WARPSIM HOST_VECADD SOURCE_DIR
"""
import os, subprocess, sys, tempfile

warpsim, host_vecadd, src = sys.argv[1:4]
base = open(os.path.join(src, "tests/host/host_vecadd.ptx")).read()


def pad(i):
    body = "".join(f"\tadd.s32 \t%r1, %r1, {k + i};\n" for k in range(40))
    return (f".func (.param .b32 pad{i}_ret) pad{i}(\n\t.param .b32 pad{i}_p\n)\n{{\n"
            f"\t.reg .b32 \t%r<2>;\n\tld.param.b32 \t%r1, [pad{i}_p];\n{body}"
            f"\tst.param.b32 \t[pad{i}_ret], %r1;\n\tret;\n}}\n\n")


text = base + "\n" + "".join(pad(i) for i in range(1100))
assert len(text) > (1 << 20), len(text)


def run(args, want_rc=0, want=None):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != want_rc or (want and want not in r.stdout + r.stderr):
        sys.exit(f"bigptx: {' '.join(args)}: exit {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r


with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "big.ptx")
    open(p, "w").write(text)
    run([warpsim, "ptx", "check", p], want="vecadd")
    run([warpsim, "ptx", "analyze", p], want="vecadd")
    out = os.path.join(d, "out.ptx")
    run([warpsim, "ptx", "annotate", p, "-o", out])
    if os.path.getsize(out) < len(text):
        sys.exit("bigptx: annotate wrote a truncated file")
    run([host_vecadd, p], want="PASS")
    # an unreadable path: the message names the file and the reason
    missing = os.path.join(d, "missing.ptx")
    run([warpsim, "ptx", "check", missing], want_rc=1, want="No such file")
    os.mkdir(os.path.join(d, "dir.ptx"))
    run([warpsim, "ptx", "check", os.path.join(d, "dir.ptx")], want_rc=1, want="dir.ptx:")
print(f"bigptx: a {len(text)} byte module passed check, analyze, annotate and cuModuleLoad")
