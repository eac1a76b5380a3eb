#!/usr/bin/env python3
"""Dependent-instruction chains on warpsim and (optionally) GPGPU-Sim: the latency a dependent
instruction sees, per instruction kind (docs/VALIDATION.md, "pipeline stages").

usage: tools/peer_chains.py [--build build] [--peer] [--iters 100] [--set KEY=VALUE ...]

Each variant is a one-thread loop of `--iters` iterations around a chain of 16 (loads: 8)
dependent instructions, in a PTX module that replaces ubench_diverge's kernel (same name and
parameters, so ubench_diverge's host driver launches it; its result check fails, which does
not matter here). Per-instruction latency = (cycles(variant) - cycles(loop)) / (iters x chain).
"ld" chains ld.global -> cvt -> add.s64 (an L1 hit each time); the load's own latency is
ld - ldadd - xor (ldadd: the add.s64 chain alone; cvt is a move-class op like xor).
warpsim: a host built from bench/ubench_diverge/main.c against build/libwarpsim.a reads the
PTX from the variant tree ($PEER_BENCH). --peer: the same driver on GPGPU-Sim (PEER_DIR,
default /tmp/peer; ../shared/peer/build-gpgpusim.sh builds it).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEAD = """.version 9.0
.target sm_75
.address_size 64

.visible .entry diverge(
	.param .u64 diverge_param_0,
	.param .u32 diverge_param_1,
	.param .u32 diverge_param_2
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<12>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	or.b32 %r3, %r1, %r2;
	setp.ne.s32 %p1, %r3, 0;
	@%p1 bra $DONE;
	ld.param.u32 %r4, [diverge_param_1];
	ld.param.u64 %rd1, [diverge_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r6, 0;
	mov.u32 %r7, 1;
	mov.f32 %f1, 0f3F800000;
	mov.u64 %rd3, %rd2;
	st.global.u32 [%rd2], %r6;
	ld.global.u32 %r9, [%rd2];
$LOOP:
"""
TAIL = """	add.s32 %r6, %r6, 1;
	setp.lt.u32 %p2, %r6, %r4;
	@%p2 bra $LOOP;
	cvt.rzi.u32.f32 %r8, %f1;
	add.s32 %r7, %r7, %r8;
	cvt.u32.u64 %r10, %rd3;
	add.s32 %r7, %r7, %r10;
	add.s32 %r7, %r7, %r9;
	st.global.u32 [%rd2], %r7;
$DONE:
	ret;
}
"""
VARIANTS = {
    "loop": ("", 0),
    "add.s32": ("\tadd.s32 %r7, %r7, 3;", 16),
    "xor.b32": ("\txor.b32 %r7, %r7, 3;", 16),
    "mul.lo.s32": ("\tmul.lo.s32 %r7, %r7, 3;", 16),
    "fma.f32": ("\tfma.rn.f32 %f1, %f1, %f1, %f1;", 16),
    "ex2.f32": ("\tex2.approx.f32 %f1, %f1;", 16),
    "ldadd": ("\tcvt.u64.u32 %rd4, %r9;\n\tadd.s64 %rd3, %rd3, %rd4;", 8),
    "ld": ("\tld.global.u32 %r9, [%rd3];\n\tcvt.u64.u32 %rd4, %r9;\n\tadd.s64 %rd3, %rd3, %rd4;", 8),
}
BENCH_PTX_C = r"""
#include <stdio.h>
#include <stdlib.h>
const char *bench_ptx(const char *name)
{
    static char buf[1 << 20];
    char p[1024];
    snprintf(p, sizeof p, "%s/%s/%s.ptx", getenv("PEER_BENCH"), name, name);
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}
"""


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--peer", action="store_true", help="also run GPGPU-Sim")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--set", action="append", default=[], help="WARPSIM_SET entries")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ws-chains-")
    try:
        for v, (body, k) in VARIANTS.items():
            d = os.path.join(tmp, v, "bench", "ubench_diverge")
            os.makedirs(d)
            with open(os.path.join(d, "ubench_diverge.ptx"), "w") as f:
                f.write(HEAD + "\n".join([body] * k) + ("\n" if k else "") + TAIL)
        src = os.path.join(tmp, "bench_ptx_file.c")
        with open(src, "w") as f:
            f.write(BENCH_PTX_C)
        host = os.path.join(tmp, "ub_ws")
        subprocess.run(["gcc", "-O2", "-o", host, "-I" + os.path.join(root, "include"),
                        "-I" + os.path.join(root, "bench", "common"),
                        os.path.join(root, "bench", "ubench_diverge", "main.c"),
                        os.path.join(root, "bench", "common", "bench.c"), src,
                        os.path.join(a.build, "libwarpsim.a"), "-linih", "-lcjson", "-lm", "-lpthread"],
                       check=True)
        peer_bin = None
        if a.peer:
            shared = os.path.join(root, "..", "shared", "peer")
            if not os.path.exists(os.path.join(shared, "drvshim.c")):
                shared = "/work/shared/peer"
            peer_dir = os.environ.get("PEER_DIR", "/tmp/peer")
            peer_bin = os.path.join(tmp, "ub_peer")
            env_sh = f"set +u; PEER_DIR={peer_dir} source {shared}/peer-env.sh; set -u; env"
            env = dict(l.split("=", 1) for l in subprocess.run(
                ["bash", "-c", env_sh], capture_output=True, text=True).stdout.splitlines() if "=" in l)
            cuda = env.get("CUDA_INSTALL_PATH", "/usr/local/cuda")
            subprocess.run(["gcc", "-O2", "-o", peer_bin, "-I" + cuda + "/include",
                            "-I" + os.path.join(root, "bench", "common"),
                            os.path.join(root, "bench", "ubench_diverge", "main.c"),
                            os.path.join(root, "bench", "common", "bench.c"),
                            os.path.join(shared, "drvshim.c"), "-L" + cuda + "/lib",
                            "-l:libcudart.so.13", "-lm"], check=True, env=env)
        res = {}
        for v in VARIANTS:
            tree = os.path.join(tmp, v, "bench")
            stats = os.path.join(tmp, v + ".json")
            env = dict(os.environ, PEER_BENCH=tree, WARPSIM_MODE="timing", WARPSIM_STATS=stats,
                       WARPSIM_SET=",".join(a.set))
            subprocess.run([host, "--size", "small", "--iters", str(a.iters)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(stats) as f:
                ws = sum(l["cycles"] for l in json.load(f)["launches"])
            pc = None
            if peer_bin:
                run = os.path.join(tmp, "peer-" + v)
                os.makedirs(run)
                cfgdir = os.path.join(os.environ.get("PEER_DIR", "/tmp/peer"), "gtx480cfg")
                for n in os.listdir(cfgdir):
                    shutil.copy(os.path.join(cfgdir, n), run)
                penv = dict(env)
                penv.update(PEER_PTX=os.path.join(run, "drv.ptx"))
                cmd = (f"set +u; source {shared}/peer-env.sh; set -u; cd {run} && "
                       f"{peer_bin} --size small --iters {a.iters} > log 2>&1")
                subprocess.run(["bash", "-c", cmd], env=penv)
                m = re.findall(r"gpu_tot_sim_cycle = (\d+)", open(os.path.join(run, "log")).read())
                pc = int(m[-1]) if m else None
            res[v] = (ws, pc)
        def per(v, i):   # cycles per dependent instruction of variant v on simulator i (0 ws, 1 peer)
            k = VARIANTS[v][1]
            c, base = res[v][i], res["loop"][i]
            return (c - base) / (a.iters * k) if k and c is not None and base is not None else None
        print(f"{'chain':12s} {'warpsim':>9s} {'GPGPU-Sim':>10s}   cycles per dependent instruction")
        for v in VARIANTS:
            ws, pc = res[v]
            w1, p1 = per(v, 0), per(v, 1)
            extra = ""
            if v == "ld":
                # the chain is ld -> cvt (a move-class op, as xor) -> add.s64 (ldadd)
                extra = f"   the load alone: warpsim {w1 - per('ldadd', 0) - per('xor.b32', 0):.1f}"
                if p1 is not None:
                    extra += f", GPGPU-Sim {p1 - per('ldadd', 1) - per('xor.b32', 1):.1f}"
            print(f"{v:12s} {ws:9d} {pc if pc is not None else '-':>10}   "
                  f"{'' if w1 is None else f'warpsim {w1:.2f}'}"
                  f"{'' if p1 is None else f', GPGPU-Sim {p1:.2f}'}{extra}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
