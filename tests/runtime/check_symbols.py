#!/usr/bin/env python3
"""Checks that warpsim's libcudart can stand in for NVIDIA's for the given programs:
the library's SONAME is the one each program NEEDs, and every symbol a program imports
at a libcudart version node is defined by the library at that node.

    check_symbols.py LIBRARY PROGRAM...
"""
import re, subprocess, sys

def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout

lib, progs = sys.argv[1], sys.argv[2:]
soname = re.search(r"\(SONAME\).*\[(.+)\]", run("readelf", "-d", lib)).group(1)
defined = set()
for line in run("objdump", "-T", lib).splitlines():
    m = re.match(r"^[0-9a-f]+ g\s+DF \.text\s+[0-9a-f]+\s+(\S+)\s+(\S+)$", line)
    if m:
        defined.add((m.group(1), m.group(2)))
bad = 0
for p in progs:
    needed = re.findall(r"\(NEEDED\).*\[(libcudart[^\]]*)\]", run("readelf", "-d", p))
    if needed != [soname]:
        print("%s: NEEDs %s, the library's SONAME is %s" % (p, needed, soname))
        bad += 1
    imports = re.findall(r"\*UND\*\s+[0-9a-f]+\s+\((libcudart[^)]*)\)\s+(\S+)$",
                         run("objdump", "-T", p), re.M)
    for ver, name in imports:
        if (ver, name) not in defined:
            print("%s: imports %s@%s, which the library does not define" % (p, name, ver))
            bad += 1
    print("%s: %d libcudart imports, all defined at %s" % (p, len(imports), soname)
          if not bad else "%s: checked" % p)
sys.exit(1 if bad else 0)
