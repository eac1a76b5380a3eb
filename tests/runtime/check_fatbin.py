#!/usr/bin/env python3
"""Checks how a program's fatbinary stores its PTX: every PTX entry of the .nv_fatbin
section has the given compression flag (0x2000 LZ4, 0x8000 zstd; src/cudart/fatbin.h).

    check_fatbin.py PROGRAM FLAG
"""
import os, struct, subprocess, sys, tempfile

prog, flag = sys.argv[1], int(sys.argv[2], 0)
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", prog, out],
                   check=True)
    img = open(out, "rb").read()
off, ptx = 0, []
while off + 16 <= len(img):
    magic, _, hdr, size = struct.unpack_from("<IHHQ", img, off)
    if magic != 0xBA55ED50:
        break
    e, end = off + hdr, off + hdr + size
    while e < end:
        kind, ehdr, psize = struct.unpack_from("<HxxIQ", img, e)
        arch, = struct.unpack_from("<I", img, e + 28)
        flags, = struct.unpack_from("<Q", img, e + 40)
        if kind == 1:
            ptx.append((arch, flags))
        e += ehdr + psize
    off = (end + 7) & ~7
bad = [p for p in ptx if not p[1] & flag]
for arch, flags in ptx:
    print("%s: compute_%d PTX, flags 0x%x" % (prog, arch, flags))
if not ptx or bad:
    print("%s: expected every PTX entry to have flag 0x%x" % (prog, flag))
    sys.exit(1)
