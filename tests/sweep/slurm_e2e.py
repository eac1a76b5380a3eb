#!/usr/bin/env python3
"""End-to-end test of the Slurm sweep backend against a real Slurm.

Starts a private one-node cluster on localhost (munged, slurmctld, slurmd from
Debian's munge / slurmctld / slurmd / slurm-client packages, all state under a
temporary directory, ports chosen free), runs a small sweep through
`experiments/sweep run --backend slurm` with one array task killed on its first
attempt (SIGKILL of the task process: it must be resubmitted and the Slurm reason
kept), runs the same sweep with the local backend and checks the two gathered CSVs
are equal (host-time columns aside); then the seed 000 experiment (two workloads) through
both backends, whose tables must be equal too. Stops every daemon it started.

    tests/sweep/slurm_e2e.py WARPSIM

Exit 0 passed, 1 failed, 77 skipped (Slurm not installed, not root, or the daemons
would not start: the message says which).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77

SWEEP = """
name = "slurm-e2e"
mode = "timing"
workloads = ["hs", "bfs"]
sizes = ["small"]
policies = ["lrr", "gto"]
set = ["mem.model=detailed"]
"""


def skip(msg):
    print(f"SKIP: Slurm end-to-end test: {msg}", flush=True)
    sys.exit(SKIP)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Cluster:
    def __init__(self, root):
        self.root = root
        self.env = dict(os.environ, SLURM_CONF=os.path.join(root, "slurm.conf"))
        self.pids = []

    def daemon(self, argv, pidfile):
        r = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=60)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exits {r.returncode}: {(r.stderr or r.stdout).strip()}")
        for _ in range(50):
            if os.path.exists(pidfile):
                with open(pidfile) as f:
                    txt = f.read().strip()
                if txt.isdigit():
                    self.pids.append(int(txt))
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{argv[0]} wrote no pid file {pidfile}")

    def start(self):
        R = self.root
        for d in ("munge", "state", "spool", "log", "out"):
            os.makedirs(os.path.join(R, d), exist_ok=True)
        os.chmod(os.path.join(R, "munge"), 0o700)
        key = os.path.join(R, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        sock = os.path.join(R, "munge", "sock")
        self.daemon(["munged", "--force", f"--socket={sock}", f"--key-file={key}",
                     f"--log-file={R}/munge/log", f"--pid-file={R}/munge/pid", f"--seed-file={R}/munge/seed"],
                    f"{R}/munge/pid")
        host = socket.gethostname().split(".")[0]
        cpus = os.cpu_count() or 1
        with open("/proc/meminfo") as f:
            mem = int(int(f.readline().split()[1]) / 1024 / 2)
        conf = f"""ClusterName=wstest
SlurmctldHost={host}(127.0.0.1)
SlurmUser=root
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={R}/state
SlurmdSpoolDir={R}/spool
SlurmctldPidFile={R}/slurmctld.pid
SlurmdPidFile={R}/slurmd.pid
SlurmctldLogFile={R}/log/slurmctld.log
SlurmdLogFile={R}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MinJobAge=600
KillWait=5
Waittime=0
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem} State=UNKNOWN
PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write(conf)
        self.daemon(["slurmctld", "-i", "-f", self.env["SLURM_CONF"]], f"{R}/slurmctld.pid")
        self.daemon(["slurmd", "-f", self.env["SLURM_CONF"]], f"{R}/slurmd.pid")
        t0 = time.monotonic()
        while time.monotonic() - t0 < 60:
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, env=self.env)
            if r.returncode == 0 and r.stdout.strip() in ("idle", "mixed", "allocated"):
                return
            time.sleep(0.5)
        raise RuntimeError("the node did not become idle in 60 s: " + self.logs())

    def logs(self):
        out = []
        for p in ("log/slurmctld.log", "log/slurmd.log"):
            try:
                with open(os.path.join(self.root, p)) as f:
                    out.append(p + ":\n" + "".join(f.readlines()[-15:]))
            except OSError:
                pass
        return "\n".join(out)

    def stop(self):
        for pid in reversed(self.pids):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for pid in self.pids:
            for _ in range(50):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    warpsim = os.path.abspath(sys.argv[1])
    if sys.version_info < (3, 11):
        skip("needs Python 3.11 (tomllib)")
    missing = [c for c in ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol")
               if not shutil.which(c, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")]
    if missing:
        skip(f"{', '.join(missing)} not installed (Debian: apt-get install munge slurmctld slurmd "
             "slurm-client; tools/deps.sh --test does it)")
    if os.geteuid() != 0:
        skip("the daemons of a private cluster are started as root here; run as root")
    os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ws-slurm-") as root:
        cl = Cluster(root)
        try:
            try:
                cl.start()
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                skip(f"the private cluster did not start: {e}")
            print(f"cluster up in {time.monotonic() - t_start:.1f} s ({root})", flush=True)
            return check(cl, root, warpsim, t_start)
        finally:
            cl.stop()


def check(cl, root, warpsim, t_start):
    sweepfile = os.path.join(root, "e2e.toml")
    with open(sweepfile, "w") as f:
        f.write(SWEEP)
    # a warpsim that kills its Slurm task once, on the bfs/gto run: the task dies
    # without a status, so the backend must resubmit it and keep the reason
    mark = os.path.join(root, "killed-once")
    wrapper = os.path.join(root, "warpsim")
    with open(wrapper, "w") as f:
        f.write(f"""#!/bin/sh
if [ -n "$SLURM_ARRAY_TASK_ID" ] && [ ! -e {mark} ]; then
  case "$*" in *"--sched gto"*" bfs "*) touch {mark}; kill -9 $PPID; exit 137;; esac
fi
exec {warpsim} "$@"
""")
    os.chmod(wrapper, 0o755)
    sweep = os.path.join(REPO, "experiments", "sweep")
    outs = os.path.join(root, "slurm-out"), os.path.join(root, "local-out")
    r = subprocess.run([sys.executable, sweep, "run", sweepfile, "--backend", "slurm", "--poll", "1",
                        "--warpsim", wrapper, "--out", outs[0], "--quiet", "--time", "10",
                        "--mem", "1G", "--partition", "test"],
                       capture_output=True, text=True, env=cl.env, timeout=600)
    print(f"slurm backend ({time.monotonic() - t_start:.1f} s):", r.returncode, r.stdout.strip(), r.stderr.strip(),
          flush=True)
    fails = []
    if r.returncode != 0:
        fails.append(f"slurm sweep exits {r.returncode}")
        print(cl.logs())
    with open(os.path.join(outs[0], "slurm", "attempts.json")) as f:
        att = json.load(f)
    died = [d for a in att for d in a["died"]]
    print("submissions:", [(a["job"], a["tasks"], [(d["state"], d["reason"], d["runs"]) for d in a["died"]])
                          for a in att])
    if not os.path.exists(mark):
        fails.append("the wrapper never killed a task (the test's fault injection did not fire)")
    if len(att) != 2 or len(died) != 1 or died[0]["runs"] != ["bfs__small__gtx480__gto"]:
        fails.append("expected one died task (bfs gto) and one resubmission")
    elif died[0]["state"] in ("", "UNKNOWN", "COMPLETED"):
        fails.append(f"the died task's Slurm state was not kept: {died[0]}")
    if not all(a["sbatch"][-1].endswith(".sh") and "--partition=test" in a["sbatch"] and "--time=10" in a["sbatch"]
               and "--mem=1G" in a["sbatch"] for a in att):
        fails.append("--partition/--time/--mem not passed to sbatch")
    r2 = subprocess.run([sys.executable, sweep, "run", sweepfile, "--backend", "local", "-j", "2",
                         "--warpsim", warpsim, "--out", outs[1], "--quiet"],
                        capture_output=True, text=True, timeout=600)
    if r2.returncode != 0:
        fails.append(f"local sweep exits {r2.returncode}: {r2.stderr.strip()}")
    sys.path.insert(0, os.path.join(REPO, "experiments"))
    import sweep as S
    a = S.read_csv(os.path.join(outs[0], "results.csv"))
    b = S.read_csv(os.path.join(outs[1], "results.csv"))
    if a != b:
        fails.append("the gathered CSVs of the slurm and local backends differ")
    elif len(a[1]) < 4 or a[0].index("cycles") < 0:
        fails.append(f"the gathered CSV has {len(a[1])} rows")
    print(f"gathered CSV: {len(a[1])} rows x {len(a[0])} columns; slurm == local: {a == b} "
          f"({time.monotonic() - t_start:.1f} s)", flush=True)
    # a seed experiment through the same backend: its tables equal the local ones
    seed = os.path.join(REPO, "experiments", "seed000", "run")
    common = ["--size", "small", "--workloads", "lps,bfs", "--set", "mem.model=simple", "--warpsim", warpsim]
    so, lo = os.path.join(root, "seed-slurm"), os.path.join(root, "seed-local")
    r3 = subprocess.run([sys.executable, seed, *common, "--out", so, "--backend", "slurm", "--partition", "test",
                         "--poll", "1"],
                        capture_output=True, text=True, env=cl.env, timeout=600)
    r4 = subprocess.run([sys.executable, seed, *common, "--out", lo, "-j", "2"], capture_output=True, text=True,
                        timeout=600)
    if r3.returncode != 0 or r4.returncode != 0:
        fails.append(f"seed000 exits {r3.returncode} (slurm) / {r4.returncode} (local): {r3.stderr[-500:]}")
    else:
        for name in ("runs.csv", "fig8_ipc_norm_gto.csv", "fig7_stall_cycles_norm_lrr.csv"):
            x, y = (S.read_csv(os.path.join(d, name)) for d in (so, lo))
            if x != y:
                fails.append(f"seed000 {name} differs between the slurm and local backends")
        print(f"seed000 on Slurm: tables equal to the local backend's: {not fails}")
    print(f"total {time.monotonic() - t_start:.1f} s")
    for f_ in fails:
        print("FAIL:", f_)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
