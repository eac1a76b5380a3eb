#!/usr/bin/env python3
"""Checks that a program's kernels run with the registers per thread of its fatbinary's
SASS (docs/CUDART.md, "Registers per thread"): runs COMMAND (warpsim exec ... --json JSON
-- PROGRAM), then compares every launch's `regs` / `regs_source` in JSON and any
`numRegs N` line the program prints (cudaFuncGetAttributes) with the EIATTR_REGCOUNT
records of the lowest-architecture uncompressed SASS entries of PROGRAM's .nv_fatbin,
read here independently of src/cudart/fatbin.c. Without SASS: regs_source must be
`estimate` and numRegs 0.

    check_regs.py PROGRAM JSON -- COMMAND...
"""
import json, os, re, struct, subprocess, sys, tempfile

prog, out = sys.argv[1], sys.argv[2]
cmd = sys.argv[sys.argv.index("--") + 1:]


def cubin_regs(d):
    """{function: registers} of one cubin (ELF64): EIATTR_REGCOUNT (0x2f) in .nv.info*."""
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shent, shnum, shstr = struct.unpack_from("<HHH", d, 0x3a)
    secs = [struct.unpack_from("<IIQQQQII", d, shoff + i * shent) for i in range(shnum)]
    cstr = lambda off: d[off:d.index(b"\0", off)].decode()
    regs = {}
    for name, typ, _, _, off, size, link, _ in secs:
        if typ != 0x70000000 or not cstr(secs[shstr][4] + name).startswith(".nv.info"):
            continue
        sym, strtab = secs[link], secs[secs[link][6]]
        p = off
        while p < off + size:
            fmt, attr = d[p], d[p + 1]
            n = 4 + (struct.unpack_from("<H", d, p + 2)[0] if fmt == 4 else 0)
            if fmt == 4 and attr == 0x2F:
                si, r = struct.unpack_from("<II", d, p + 4)
                st_name, = struct.unpack_from("<I", d, sym[4] + 24 * si)
                regs[cstr(strtab[4] + st_name)] = r
            p += n
    return regs


with tempfile.TemporaryDirectory() as t:
    fb = os.path.join(t, "fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", prog, fb],
                   check=True)
    img = open(fb, "rb").read()
sass, off = [], 0
while off + 16 <= len(img):
    magic, _, hdr, size = struct.unpack_from("<IHHQ", img, off)
    if magic != 0xBA55ED50:
        break
    e = off + hdr
    while e < off + hdr + size:
        kind, ehdr, psize = struct.unpack_from("<HxxIQ", img, e)
        arch, = struct.unpack_from("<I", img, e + 28)
        flags, = struct.unpack_from("<Q", img, e + 40)
        if kind == 2:
            assert not flags & 0xA000, "compressed SASS: rebuild without --compress-mode=size"
            sass.append((arch, img[e + ehdr:e + ehdr + psize]))
        e += ehdr + psize
    off = (off + hdr + size + 7) & ~7
want = {}
if sass:
    low = min(a for a, _ in sass)
    for a, d in sass:
        if a == low:
            want.update(cubin_regs(d))
    print(f"{prog}: sm_{low} SASS: {want}")
else:
    print(f"{prog}: no SASS")

if os.path.exists(out):
    os.unlink(out)
r = subprocess.run(cmd, capture_output=True, text=True)
sys.stdout.write(r.stdout[-2000:])
sys.stderr.write(r.stderr[-2000:])
if r.returncode:
    sys.exit(f"command failed ({r.returncode})")
nregs = [int(m) for m in re.findall(r"numRegs (\d+)", r.stdout + r.stderr)]
launches = json.load(open(out))["launches"]
bad = []
for l in launches:
    k = l["kernel"]
    exp = (want[k], "ptxas") if k in want else (None, "estimate")
    if l.get("regs_source") != exp[1] or (exp[0] is not None and l.get("regs") != exp[0]):
        bad.append(f"{k}: regs {l.get('regs')} ({l.get('regs_source')}), expected {exp}")
exp_n = list(want.values())[0] if len(want) == 1 else 0
if nregs and any(n != exp_n for n in nregs):
    bad.append(f"numRegs {nregs}, expected {exp_n}")
if not launches:
    bad.append("no launch")
for b in bad:
    print("check_regs:", b)
sys.exit(1 if bad else 0)
