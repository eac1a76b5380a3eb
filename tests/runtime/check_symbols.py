#!/usr/bin/env python3
"""Checks that warpsim's libcudart builds can stand in for NVIDIA's for the given programs:
each program NEEDs the SONAME of one of the libraries (libcudart.so.13 or libcudart.so.12),
and every symbol it imports at a libcudart version node is defined by that library at that
node. With LIBRARY=SYMS, every name of the list SYMS (one a line, '#' comments) must be
defined by the library at its version node too (the names NVIDIA's library exports).

    check_symbols.py LIBRARY[=SYMS]... -- PROGRAM...
"""
import re, subprocess, sys

def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout

args = sys.argv[1:]
if "--" not in args:
    sys.exit(__doc__)
sep = args.index("--")
libs, progs = args[:sep], args[sep + 1:]
bad = 0
by_soname = {}
for spec in libs:
    lib, _, syms = spec.partition("=")
    soname = re.search(r"\(SONAME\).*\[(.+)\]", run("readelf", "-d", lib)).group(1)
    defined = set()
    for line in run("objdump", "-T", lib).splitlines():
        m = re.match(r"^[0-9a-f]+ g\s+DF \.text\s+[0-9a-f]+\s+(\S+)\s+(\S+)$", line)
        if m:
            defined.add((m.group(1), m.group(2)))
    nodes = {v for v, _ in defined}
    if nodes != {soname}:
        print("%s: exports at version nodes %s, expected only %s" % (lib, sorted(nodes), soname))
        bad += 1
    if syms:
        names = [l.strip() for l in open(syms) if l.strip() and not l.startswith("#")]
        missing = [n for n in names if (soname, n) not in defined]
        for n in missing:
            print("%s: does not define %s@%s (%s)" % (lib, n, soname, syms))
        bad += len(missing)
        print("%s: SONAME %s, %d functions, all %d names of %s defined"
              % (lib, soname, len(defined), len(names), syms) if not missing else lib)
    by_soname[soname] = defined
for p in progs:
    needed = re.findall(r"\(NEEDED\).*\[(libcudart[^\]]*)\]", run("readelf", "-d", p))
    if len(needed) != 1 or needed[0] not in by_soname:
        print("%s: NEEDs %s, the libraries' SONAMEs are %s" % (p, needed, sorted(by_soname)))
        bad += 1
        continue
    soname = needed[0]
    imports = re.findall(r"\*UND\*\s+[0-9a-f]+\s+\((libcudart[^)]*)\)\s+(\S+)$",
                         run("objdump", "-T", p), re.M)
    wrong = [(v, n) for v, n in imports if (v, n) not in by_soname[soname]]
    for ver, name in wrong:
        print("%s: imports %s@%s, which %s does not define" % (p, name, ver, soname))
    bad += len(wrong)
    if not imports:
        print("%s: no libcudart imports" % p)
        bad += 1
    elif not wrong:
        print("%s: NEEDs %s; %d libcudart imports, all defined at %s"
              % (p, soname, len(imports), soname))
sys.exit(1 if bad else 0)
