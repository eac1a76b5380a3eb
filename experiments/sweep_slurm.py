"""The Slurm backend of sweeps (docs/SWEEPS.md).

One `sbatch --array` job per round: array task i runs the runs listed on line i of a
task file (`batch` runs per task), each writing its JSON, .cmd, .log and a status file
into the sweep's output directory, which must be shared between the submit host and
the compute nodes. A task exits 0 once every run of its batch has a status, whether
the simulation passed or failed: a failing simulation is a result (reported, never
retried). A task that dies (time limit, out of memory, node failure, cancelled) leaves
runs without a status; after the job ends those runs are resubmitted as a new array,
up to max_retries times, and the Slurm state and reason of the task that died are kept
in slurm/attempts.json and, when the retries run out, as the run's error.

Polling: `squeue` until the job has no task left, then `sacct` (when accounting is
enabled) or `scontrol show job` for each task's final state.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep as S  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class SlurmError(S.SweepError):
    pass


def _cmd(argv, check=True):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SlurmError(f"{shlex.join(argv)}: {e}")
    if check and r.returncode != 0:
        raise SlurmError(f"{shlex.join(argv)} exits {r.returncode}: {(r.stderr or r.stdout).strip()}")
    return r


def available():
    """'' when sbatch/squeue are on PATH, else why not."""
    missing = [c for c in ("sbatch", "squeue", "scontrol") if not shutil.which(c)]
    return f"{', '.join(missing)} not found on PATH" if missing else ""


def sbatch_argv(opts, n_tasks, script, logdir, name):
    argv = ["sbatch", "--parsable", f"--job-name=ws-{name}"[:64],
            f"--output={os.path.join(logdir, '%A_%a.out')}"]
    arr = f"0-{n_tasks - 1}"
    if opts.get("max_parallel"):
        arr += f"%{int(opts['max_parallel'])}"
    argv.append(f"--array={arr}")
    for k in ("partition", "time", "mem"):
        if opts.get(k):
            argv.append(f"--{k}={opts[k]}")
    argv += [str(a) for a in opts.get("sbatch_args", [])]
    argv.append(script)
    return argv


def task_states(jobid):
    """{array task id: (state, reason, exit code)} of a finished or running array job,
    from sacct when accounting works, else scontrol (jobs stay there MinJobAge s)."""
    out = {}
    if shutil.which("sacct"):
        r = _cmd(["sacct", "-n", "-P", "-X", "-j", jobid, "-o", "JobID,State,Reason,ExitCode"], check=False)
        if r.returncode == 0 and r.stdout.strip():
            for line in r.stdout.splitlines():
                f = line.split("|")
                if len(f) >= 4 and "_" in f[0]:
                    tid = f[0].split("_", 1)[1]
                    if tid.isdigit():
                        out[int(tid)] = (f[1].split()[0], f[2], f[3])
            if out:
                return out
    r = _cmd(["scontrol", "-o", "show", "job", jobid], check=False)
    for line in r.stdout.splitlines():
        kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
        tid = kv.get("ArrayTaskId", "")
        if tid.isdigit():
            out[int(tid)] = (kv.get("JobState", "?"), kv.get("Reason", ""), kv.get("ExitCode", ""))
    return out


def queued(jobid):
    """Number of this job's tasks still pending or running (squeue)."""
    r = _cmd(["squeue", "-h", "-r", "-j", jobid, "-o", "%i %T"], check=False)
    if r.returncode != 0:
        # squeue forgets a job that has ended: "Invalid job id specified"
        if "Invalid job id" in (r.stderr or ""):
            return 0
        raise SlurmError(f"squeue -j {jobid} exits {r.returncode}: {r.stderr.strip()}")
    return len([l for l in r.stdout.splitlines() if l.strip()])


def write_manifest(slurmdir, warpsim, outdir, runs, force, timeout):
    man = {"warpsim": warpsim, "outdir": outdir, "force": bool(force), "timeout": timeout,
           "runs": [r.to_json() for r in runs]}
    p = os.path.join(slurmdir, "manifest.json")
    with open(p, "w") as f:
        json.dump(man, f, indent=1, sort_keys=True)
    return p


def write_script(slurmdir, python, manifest, taskfile):
    p = os.path.join(slurmdir, os.path.basename(taskfile).replace(".tasks", ".sh"))
    with open(p, "w") as f:
        f.write("#!/bin/sh\n# one array task of a warpsim sweep (experiments/sweep_slurm.py)\n"
                f"exec {shlex.quote(python)} {shlex.quote(os.path.join(HERE, 'sweep'))} task "
                f"{shlex.quote(manifest)} {shlex.quote(taskfile)} \"$SLURM_ARRAY_TASK_ID\"\n")
    os.chmod(p, 0o755)
    return p


def task_main(manifest, taskfile, task_id):
    """Runs one array task's batch (called on the compute node by `sweep task`)."""
    with open(manifest) as f:
        man = json.load(f)
    with open(taskfile) as f:
        lines = f.read().splitlines()
    idx = [int(x) for x in lines[int(task_id)].split()]
    runs = [S.Run.from_json(man["runs"][i]) for i in idx]
    digest = S.C.file_digest(man["warpsim"])
    for r in runs:
        res = S.run_one(man["warpsim"], digest, man["outdir"], r, man["force"], man["timeout"])
        print(f"{'ok' if res.ok else 'FAIL'} {r.name} {S.strip_log(res.error)}", flush=True)
    return 0


def run_slurm(warpsim, outdir, runs, opts, force=False, timeout=None, quiet=False, name="sweep"):
    """Runs `runs` on Slurm; returns (ran, reused, failed) like sweep.run_local."""
    why = available()
    if why:
        raise SlurmError(f"the slurm backend needs Slurm's commands: {why}")
    os.makedirs(outdir, exist_ok=True)
    slurmdir = os.path.join(outdir, "slurm")
    os.makedirs(slurmdir, exist_ok=True)
    digest = S.C.file_digest(warpsim)
    todo = S.pending(runs, outdir, digest, force)
    reused = len(runs) - len(todo)
    for r in todo:  # a status from an earlier sweep must not stand for this one
        try:
            os.remove(S.status_path(outdir, r))
        except FileNotFoundError:
            pass
    batch = max(1, int(opts.get("batch", 1)))
    retries = int(opts.get("max_retries", 2))
    poll = float(opts.get("poll", 10))
    python = opts.get("python") or sys.executable or "python3"
    attempts_path = os.path.join(slurmdir, "attempts.json")
    attempts = []
    manifest = write_manifest(slurmdir, warpsim, outdir, runs, force, timeout)
    index = {r.name: i for i, r in enumerate(runs)}
    prog = S.Progress(len(runs), quiet)
    prog.reused = reused
    prog.update(reused, 0, "")
    lost = {}           # run name -> reason its last task died
    left = list(todo)
    for attempt in range(retries + 1):
        if not left:
            break
        batches = [left[i:i + batch] for i in range(0, len(left), batch)]
        taskfile = os.path.join(slurmdir, f"round{attempt}.tasks")
        with open(taskfile, "w") as f:
            for b in batches:
                f.write(" ".join(str(index[r.name]) for r in b) + "\n")
        script = write_script(slurmdir, python, manifest, taskfile)
        argv = sbatch_argv(opts, len(batches), script, slurmdir, name)
        jobid = _cmd(argv).stdout.strip().split(";")[0]
        rec = {"round": attempt, "job": jobid, "sbatch": argv, "tasks": len(batches), "died": []}
        attempts.append(rec)
        _save(attempts_path, attempts)
        errors = 0
        while True:
            try:
                n = queued(jobid)
                errors = 0
            except SlurmError as e:
                # slurmctld busy or restarting: keep polling for a while
                errors += 1
                if errors > 30:
                    raise SlurmError(f"{e} (30 polls in a row; job {jobid} left as it is)")
                n = -1
            sts = [S.read_status(outdir, r) for r in todo]
            failed = sum(1 for st in sts if st is not None and st.get("ok") is False)
            prog.update(reused + sum(st is not None for st in sts), failed, "")
            if n == 0:
                break
            end = time.monotonic() + poll
            while time.monotonic() < end:
                prog.tick()
                time.sleep(min(1.0, poll))
        states = task_states(jobid)
        again = []
        for t, b in enumerate(batches):
            missing = [r for r in b if S.read_status(outdir, r) is None]
            if not missing:
                continue
            st, reason, code = states.get(t, ("UNKNOWN", "no state from sacct/scontrol", ""))
            why = f"Slurm task {jobid}_{t} {st}" + (f" ({reason})" if reason and reason != "None" else "") + \
                  (f", exit {code}" if code else "")
            rec["died"].append({"task": t, "state": st, "reason": reason, "exit": code,
                                "runs": [r.name for r in missing]})
            for r in missing:
                lost[r.name] = why
            again += missing
        _save(attempts_path, attempts)
        left = again
    # runs still without a status: their last task's fate is the error
    for r in left:
        res = S.C.Result(r.workload, r.config.name, False,
                         error=f"{lost.get(r.name, 'no result')} after {retries + 1} submission(s)")
        S.write_status(outdir, r, res, {"slurm": lost.get(r.name, "")})
    failed = sum(1 for r in todo if (S.read_status(outdir, r) or {}).get("ok") is False)
    prog.update(len(runs), failed, "")
    prog.finish()
    return len(todo), reused, failed


def _save(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
