"""Shared harness of the seed experiments (experiments/README.md).

An experiment runs a matrix of `warpsim run` invocations (workloads x configurations)
in parallel, one JSON report per run under experiments/out/<experiment>/, then turns
named statistics of those reports into tables (text, CSV, JSON) and grouped bar charts
(PNG and PDF drawn by plots.py with matplotlib, Debian's python3-matplotlib; the rest is
Python 3 standard library only). Sweep files and backends (local, Slurm): sweep.py.

Rules the harness keeps:
- A run counts only when warpsim exits 0, the workload printed its PASS verdict, every
  launch reports result "ok" and the JSON parses. Anything else is a failure: it is
  reported with its reason and shown as FAIL in tables, never turned into a number.
- A run's JSON is reused when it exists and was produced by the same command (the
  command is stored beside it in <run>.cmd, with the sha256 of the warpsim that ran
  it: reuse across a rebuilt warpsim is allowed but flagged); --force reruns everything.
- Orders are the ones given (workloads, configurations) or sorted; output files are
  byte-for-byte reproducible from the same reports.
"""
import concurrent.futures
import csv
import glob
import hashlib
import io
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_ROOT = os.path.join(REPO, "experiments", "out")


class ExperimentError(Exception):
    """An error the experiment reports and stops on (bad setup, missing statistic)."""


class MissingStat(ExperimentError):
    def __init__(self, key, where, available=()):
        self.key = key
        msg = f"statistic '{key}' is missing in {where}"
        if available:
            keys = sorted(available)
            msg += " (present: " + ", ".join(keys[:40]) + (" ..." if len(keys) > 40 else "") + ")"
        super().__init__(msg)


class _Failed:
    """Cell marker: the run (or the run it is normalised to) failed."""

    def __repr__(self):
        return "FAIL"


FAIL = _Failed()


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------
# warpsim discovery and probing

def find_warpsim(explicit=None):
    """--warpsim, else $WARPSIM, else <repo>/build/warpsim, <repo>/build*/warpsim, PATH."""
    cands = [explicit] if explicit else []
    if not explicit:
        if os.environ.get("WARPSIM"):
            cands.append(os.environ["WARPSIM"])
        cands.append(os.path.join(REPO, "build", "warpsim"))
        cands += sorted(glob.glob(os.path.join(REPO, "build*", "warpsim")))
        w = shutil.which("warpsim")
        if w:
            cands.append(w)
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    where = explicit or "$WARPSIM, build/warpsim, build*/warpsim or PATH"
    raise ExperimentError(f"no warpsim executable found ({where}); build it or pass --warpsim PATH")


def _capture(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ExperimentError(f"{' '.join(argv)}: {e}")
    return r


def list_section(warpsim, header_prefix, args=("list",)):
    """Names in a section of `warpsim list` output (indented lines after a header line
    starting with header_prefix), de-duplicated, in listed order."""
    r = _capture([warpsim, *args])
    if r.returncode != 0:
        raise ExperimentError(f"warpsim {' '.join(args)} failed (exit {r.returncode}): {r.stderr.strip()}")
    names, on = [], False
    for line in r.stdout.splitlines():
        if line.startswith(header_prefix):
            on = True
            continue
        if on and (not line.strip() or not line.startswith(" ")):
            on = line.startswith(header_prefix)
            continue
        if on:
            n = line.split()[0]
            if n not in names:
                names.append(n)
    return names


def list_workloads(warpsim):
    return list_section(warpsim, "workloads")


def list_scheds(warpsim):
    return list_section(warpsim, "warp schedulers")


def set_keys(sets):
    return {s.split("=", 1)[0].strip() for s in sets}


def check_config(warpsim, config_args):
    """Raises when `warpsim config` rejects the options (bad preset, --set key or value)."""
    r = _capture([warpsim, "config", *config_args])
    if r.returncode != 0:
        raise ExperimentError(f"the configuration is rejected (`warpsim config` exits {r.returncode}): "
                              + failure_reason(r.stderr + r.stdout))


def probe_mem_model(warpsim, config_args, model="detailed", probe_workload="ubench_chase"):
    """(usable, why not): `warpsim config --set mem.model=<model>` must succeed and,
    because the config only checks the string, a tiny timing run with it must pass too
    (when the probe workload exists)."""
    r = _capture([warpsim, "config", *config_args, "--set", f"mem.model={model}"])
    if r.returncode != 0:
        return False, f"`warpsim config --set mem.model={model}` exits {r.returncode}"
    if probe_workload not in list_workloads(warpsim):
        return True, ""
    r = _capture([warpsim, "run", "--mode", "timing", *config_args, "--set", f"mem.model={model}",
                  "--no-report", probe_workload, "--size", "small", "--quiet"])
    if r.returncode != 0:
        return False, f"a probe run ({probe_workload} --size small) fails: " + failure_reason(r.stdout + r.stderr)
    return True, ""


def memory_model_args(warpsim, sets, config_args, model="detailed"):
    """(extra args, description). A user's --set mem.model=... wins; otherwise the
    detailed model is used when this warpsim can run it, else the default (simple)."""
    if "mem.model" in set_keys(sets):
        m = [s.split("=", 1)[1] for s in sets if s.split("=", 1)[0].strip() == "mem.model"][-1]
        return [], f"mem.model={m} (from --set)"
    ok, why = probe_mem_model(warpsim, config_args, model)
    if ok:
        return ["--set", f"mem.model={model}"], f"mem.model={model} (available, used by default)"
    return [], (f"default memory model: mem.model={model} is not usable in this warpsim ({why}); "
                "L1D statistics will be n/a")


# ---------------------------------------------------------------------------------
# running the matrix

class Config:
    """One column of the matrix: a name and the warpsim options that make it."""

    def __init__(self, name, args):
        self.name = name
        self.args = list(args)

    def __repr__(self):
        return f"Config({self.name!r}, {self.args!r})"


class Result:
    def __init__(self, workload, config, ok, doc=None, error="", seconds=0.0, reused=False, path=""):
        self.workload = workload
        self.config = config
        self.ok = ok
        self.doc = doc
        self.error = error
        self.seconds = seconds
        self.reused = reused
        self.other_binary = False  # reused, but made by another warpsim executable
        self.path = path


class Matrix:
    """Results of every (workload, config) run, in the given orders."""

    def __init__(self, workloads, configs, results, wall_seconds=0.0):
        self.workloads = list(workloads)
        self.configs = [c.name if isinstance(c, Config) else c for c in configs]
        self.results = results
        self.wall_seconds = wall_seconds

    def get(self, w, c):
        return self.results[(w, c)]

    def failures(self):
        return [self.results[(w, c)] for w in self.workloads for c in self.configs
                if not self.results[(w, c)].ok]


def run_name(workload, config):
    return f"{workload}__{config}"


_VERDICT = re.compile(r"^(\S+) \[([^\]]*)\]: (PASS|FAIL)\b.*$", re.M)


def failure_reason(output, width=200):
    """One line saying why a run failed: the simulator's first error line
    ("warpsim: ..."), else the last line of output; cut to `width` characters."""
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    pick = next((l for l in lines if l.startswith("warpsim:")), lines[-1] if lines else "(no output)")
    return pick if len(pick) <= width else pick[:width - 3] + "..."


def check_run(workload, rc, output, json_path):
    """(doc, error): the parsed report of a good run, or None and why the run failed."""
    verdicts = [m for m in _VERDICT.finditer(output) if m.group(1) == workload]
    bad = [m.group(0) for m in verdicts if m.group(3) == "FAIL"]
    if rc != 0:
        return None, f"exit {rc}: " + (bad[0] if bad else failure_reason(output))
    if bad:
        return None, bad[0]
    if not verdicts:
        return None, "no PASS verdict in the output: " + failure_reason(output)
    try:
        with open(json_path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return None, f"no readable JSON report: {e}"
    if not isinstance(doc, dict) or not isinstance(doc.get("total"), dict):
        return None, "JSON report has no 'total' object"
    for i, l in enumerate(doc.get("launches", [])):
        res = l.get("result", "ok")
        if res != "ok":
            return None, f"launch {i} ({l.get('kernel', '?')}) result '{res}'"
    return doc, ""


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_key(workload, config, base_args, workload_args):
    """The command of a run minus the executable and file names: what makes the
    result what it is (stored in <run>.cmd; a result is reused only for the same key)."""
    return ["run", *base_args, *config.args, "--no-report", "--json", "OUT.json", workload, *workload_args]


def reuse_result(digest, outdir, workload, config, base_args, workload_args):
    """The Result of an earlier run of the same command whose JSON is still readable,
    else None (today's reuse rule; `digest` only flags another warpsim executable)."""
    stem = os.path.join(outdir, run_name(workload, config.name))
    path, cmdpath = stem + ".json", stem + ".cmd"
    if not os.path.exists(path) or not os.path.exists(cmdpath):
        return None
    keytxt = shlex.join(run_key(workload, config, base_args, workload_args)) + "\n"
    with open(cmdpath) as f:
        old = f.read()
    if old.split("\n", 1)[0] + "\n" != keytxt:
        return None
    try:
        with open(path) as f:
            res = Result(workload, config.name, True, json.load(f), reused=True, path=path)
    except (OSError, ValueError):
        return None  # unreadable: run again
    res.other_binary = f"# warpsim sha256 {digest}\n" not in old
    return res


def _one_run(warpsim, digest, outdir, workload, config, base_args, workload_args, force, timeout):
    stem = os.path.join(outdir, run_name(workload, config.name))
    path, cmdpath, logpath, tmp = stem + ".json", stem + ".cmd", stem + ".log", stem + ".json.tmp"
    key = run_key(workload, config, base_args, workload_args)
    keytxt = shlex.join(key) + "\n"
    stamp = f"# warpsim sha256 {digest}\n"
    if not force:
        res = reuse_result(digest, outdir, workload, config, base_args, workload_args)
        if res is not None:
            return res
    for p in (path, cmdpath):  # a stale report must never survive a failed rerun
        if os.path.exists(p):
            os.remove(p)
    argv = [warpsim, *[tmp if a == "OUT.json" else a for a in key]]
    t0 = time.monotonic()
    try:
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=timeout)
        rc, out = r.returncode, r.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc, out = 124, out + f"\n(timed out after {timeout} s)"
    except OSError as e:
        rc, out = 127, str(e)
    secs = time.monotonic() - t0
    with open(logpath, "w") as f:
        f.write("$ " + shlex.join(argv) + "\n" + out)
    doc, err = check_run(workload, rc, out, tmp)
    if doc is None:
        if os.path.exists(tmp):
            os.replace(tmp, stem + ".failed.json")
        return Result(workload, config.name, False, error=err + f" (log: {os.path.relpath(logpath)})",
                      seconds=secs, path=path)
    os.replace(tmp, path)
    with open(cmdpath, "w") as f:
        f.write(keytxt + stamp)
    return Result(workload, config.name, True, doc, seconds=secs, path=path)


def run_matrix(warpsim, outdir, workloads, configs, base_args=(), workload_args=(), jobs=None,
               force=False, timeout=None, unavailable=None, quiet=False, slurm=None):
    """Runs every (workload, config) pair, `jobs` at a time. `unavailable` maps a config
    name to a reason it cannot run (it is then reported as failed without running).
    slurm: a dict of Slurm options (slurm_opts(); sweep_slurm.run_slurm) to run the
    matrix as one sbatch array instead of on this host; the files are the same."""
    if slurm is not None:
        return _run_matrix_slurm(warpsim, outdir, workloads, configs, base_args, workload_args, force, timeout,
                                 unavailable or {}, quiet, slurm)
    os.makedirs(outdir, exist_ok=True)
    jobs = max(1, jobs or os.cpu_count() or 1)
    digest = file_digest(warpsim)
    unavailable = unavailable or {}
    pairs = [(w, c) for w in workloads for c in configs]
    results = {}
    t0 = time.monotonic()
    todo = []
    for w, c in pairs:
        if c.name in unavailable:
            results[(w, c.name)] = Result(w, c.name, False, error=unavailable[c.name])
        else:
            todo.append((w, c))
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(_one_run, warpsim, digest, outdir, w, c, list(base_args), list(workload_args),
                          force, timeout): (w, c) for w, c in todo}
        for fut in concurrent.futures.as_completed(futs):
            w, c = futs[fut]
            res = fut.result()
            results[(w, c.name)] = res
            done += 1
            if not quiet:
                what = "reused" if res.reused else ("ok" if res.ok else "FAIL")
                extra = "" if res.ok else "  " + res.error
                secs = "" if res.reused else f"{res.seconds:7.1f} s"
                log(f"[{done:3d}/{len(todo)}] {what:6s} {run_name(w, c.name):32s} {secs}{extra}")
    return Matrix(workloads, configs, results, time.monotonic() - t0)


def _run_matrix_slurm(warpsim, outdir, workloads, configs, base_args, workload_args, force, timeout,
                      unavailable, quiet, opts):
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import sweep
    import sweep_slurm
    t0 = time.monotonic()
    digest = file_digest(warpsim)
    results, runs = {}, []
    for w in workloads:
        for c in configs:
            if c.name in unavailable:
                results[(w, c.name)] = Result(w, c.name, False, error=unavailable[c.name])
            else:
                # base args folded into the config: the same run key, so the same reuse
                runs.append(sweep.Run(w, Config(c.name, [*base_args, *c.args]), workload_args))
    before = {r.name for r in runs if sweep.reuse(digest, outdir, r) is not None} if not force else set()
    sweep_slurm.run_slurm(warpsim, outdir, runs, opts, force, timeout, quiet, os.path.basename(outdir))
    for r in runs:
        res = sweep.reuse(digest, outdir, r)
        if res is None:
            st = sweep.read_status(outdir, r) or {}
            res = Result(r.workload, r.config.name, False, error=st.get("error") or "no result",
                         seconds=st.get("seconds", 0.0), path=os.path.join(outdir, r.name + ".json"))
        else:
            res.reused = r.name in before
            res.seconds = 0.0 if res.reused else (sweep.read_status(outdir, r) or {}).get("seconds", 0.0)
        results[(r.workload, r.config.name)] = res
    return Matrix(workloads, configs, results, time.monotonic() - t0)


# ---------------------------------------------------------------------------------
# statistics

def stat(doc, key, where="the report's 'total' object"):
    t = doc.get("total", {})
    if key not in t:
        raise MissingStat(key, where, t.keys())
    v = t[key]
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise ExperimentError(f"statistic '{key}' in {where} is not a number: {v!r}")
    return float(v)


def div(a, b):
    """a / b, or None (n/a) when b is 0 or either side is n/a."""
    if a is None or b is None or b == 0:
        return None
    return a / b


def total(key):
    """Metric: the statistic `key` of the report's total."""
    return lambda doc: stat(doc, key)


def ratio_of(num, den):
    """Metric: total[num] / total[den]."""
    return lambda doc: div(stat(doc, num), stat(doc, den))


def sum_of(*keys):
    return lambda doc: sum(stat(doc, k) for k in keys)


ipc = ratio_of("warp_insts", "cycles")
warps_in_flight = ratio_of("warps_in_flight_sum", "active_sm_cycles")
resfails = sum_of("resfail_csf", "resfail_mshrf", "resfail_mqf")

# Where the memory model may keep its L1 data cache statistics, under a launch's "mem".
L1D_KEYS = ("l1d", "L1D", "l1_data", "l1dcache", "l1d_cache", "dl1")
_COUNT_KEYS = ("accesses", "hits", "misses", "merges", "hit_reserved", "reserved")


def _l1d_objects(mem):
    """The L1D statistics objects of one launch's "mem" object: a dict, or a list of
    dicts (one per SM), under one of L1D_KEYS, possibly inside "caches"/"levels"."""
    for holder in (mem, mem.get("caches"), mem.get("levels"), mem.get("cache")):
        if not isinstance(holder, dict):
            continue
        for k in L1D_KEYS:
            v = holder.get(k)
            if isinstance(v, dict):
                # {"per_sm": [...]} or {"total": {...}}
                if isinstance(v.get("total"), dict):
                    return [v["total"]]
                if isinstance(v.get("per_sm"), list) and not any(c in v for c in _COUNT_KEYS):
                    return [x for x in v["per_sm"] if isinstance(x, dict)]
                return [v]
            if isinstance(v, list):
                return [x for x in v if isinstance(x, dict)]
    # flat keys: l1d_hits, l1d_misses, l1d_accesses
    flat = {k[len(p) + 1:]: v for p in L1D_KEYS for k, v in mem.items() if k.startswith(p + "_")}
    return [flat] if flat else []


def l1d_counts(doc, where="report"):
    """(misses, accesses) of the L1 data caches summed over launches, or None when the
    memory model reports no L1D (the simple model). Raises when the model claims to be
    a cached one but no known L1D statistics are present."""
    misses = accesses = 0.0
    found = False
    models = set()
    for i, l in enumerate(doc.get("launches", [])):
        mem = l.get("mem")
        if not isinstance(mem, dict):
            continue
        models.add(str(mem.get("model", "?")))
        objs = _l1d_objects(mem)
        for o in objs:
            # lookups that found their line or had to fetch it: hits + misses + merges
            # (merged into an outstanding miss); bypasses (writes sent below, .cg
            # loads) never look for reuse, so they are left out when the model
            # separates them, as GPGPU-Sim's L1D miss rate does.
            m = o.get("misses")
            if "hits" in o and m is not None:
                a = o["hits"] + m + o.get("merges", o.get("hit_reserved", 0))
            else:
                a = o.get("accesses")
            if m is None or a is None:
                if "miss_rate" in o and "accesses" in o:
                    m, a = o["miss_rate"] * o["accesses"], o["accesses"]
                else:
                    raise MissingStat("misses/accesses", f"{where}: launch {i} mem L1D statistics",
                                      o.keys())
            misses += float(m)
            accesses += float(a)
            found = True
        if not objs and mem.get("model", "simple") != "simple":
            raise MissingStat("|".join(L1D_KEYS), f"{where}: launch {i} 'mem' object "
                              f"(model {mem.get('model')!r})", mem.keys())
    if not found:
        return None
    return misses, accesses


def l1d_miss_rate(doc):
    c = l1d_counts(doc)
    return None if c is None else div(c[0], c[1])


def mem_counter(level, key):
    """Metric: the counter `key` of the memory level `level` ("l1d", "l2", "dram" ...) in
    each launch's "mem" object (docs/STATS.md), summed over launches; e.g.
    mem_counter("l2", "misses"). None (n/a) when no launch has a model other than the
    simple one (no levels); raises when a detailed launch lacks the counter."""
    def metric(doc):
        tot, found = 0.0, False
        for i, l in enumerate(doc.get("launches", [])):
            mem = l.get("mem")
            if not isinstance(mem, dict) or mem.get("model", "simple") == "simple":
                continue
            where = f"launch {i} 'mem' object (model {mem.get('model')!r})"
            lv = mem.get(level)
            if not isinstance(lv, dict):
                raise MissingStat(level, where, mem.keys())
            if key not in lv:
                raise MissingStat(f"{level}.{key}", where, lv.keys())
            v = lv[key]
            if not is_num(v):
                raise ExperimentError(f"statistic '{level}.{key}' in {where} is not a number: {v!r}")
            tot += float(v)
            found = True
        return tot if found else None
    return metric


def l2_mpki(doc):
    """L2 misses per 1000 warp instructions (seed 001's MPKI), summed over launches;
    None (n/a) without an L2 (simple memory model)."""
    m = mem_counter("l2", "misses")(doc)
    return None if m is None else div(1000.0 * m, stat(doc, "warp_insts"))


def launch_policies(doc):
    """The scheduling policy of each launch (its "policy" field), in launch order; a
    launch without one (functional mode) is "?"."""
    return [str(l.get("policy", "?")) for l in doc.get("launches", [])]


_CHOICE = re.compile(r"^[^()]*\(([^()]*)\)$")


def policy_choice(policy):
    """What a policy ran as: "static-select(lrr)" -> "lrr"; a plain name is itself."""
    m = _CHOICE.match(policy)
    return m.group(1) if m else policy


def policy_mix(doc):
    """The policies the launches ran (policy_choice of each): "lrr" when all ran one,
    else "lrr 2/gto 1" (most launches first, ties in order of first launch); "" when
    there are no launches."""
    counts = {}
    for p in launch_policies(doc):
        c = policy_choice(p)
        counts[c] = counts.get(c, 0) + 1
    if len(counts) <= 1:
        return next(iter(counts), "")
    order = list(counts)
    return "/".join(f"{c} {counts[c]}" for c in sorted(order, key=lambda c: (-counts[c], order.index(c))))


# ---------------------------------------------------------------------------------
# tables

def geomean(vals):
    """Geometric mean; 0 when a value is 0; None when empty or a value is negative."""
    vals = list(vals)
    if not vals or any(v < 0 for v in vals):
        return None
    if any(v == 0 for v in vals):
        return 0.0
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def amean(vals):
    vals = list(vals)
    return sum(vals) / len(vals) if vals else None


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


MEANS = {"geomean": geomean, "mean": amean}


class Table:
    """rows x cols of numbers, None (n/a) or FAIL, plus mean rows over the rows that
    have a number in every column (so the means of all columns cover the same rows)."""

    def __init__(self, name, title, rows, cols, cells, unit="", fmt="{:.3f}", means=True,
                 note="", ylabel=None, baseline=None, row_label="workload", chart="bars"):
        self.name = name
        # its figure: "bars" (grouped bars, one group per row) or "stacked" (one bar per
        # row, the columns stacked: a breakdown such as reservation fails by cause)
        self.chart = chart
        self.row_label = row_label
        self.title = title
        self.rows = list(rows)
        self.cols = list(cols)
        self.cells = dict(cells)
        self.unit = unit
        self.fmt = fmt
        self.note = note
        self.ylabel = ylabel or unit or title
        self.baseline = baseline
        self.mean_rows = []
        self.excluded = []
        # means: True (geomean and mean), False (none) or the names of the rows wanted
        kinds = ("geomean", "mean") if means is True else tuple(means or ())
        bad = [k for k in kinds if k not in MEANS]
        if bad:
            raise ValueError(f"unknown mean kind(s) {bad}; known: {sorted(MEANS)}")
        if kinds:
            full = [r for r in self.rows if all(is_num(self.cells.get((r, c))) for c in self.cols)]
            self.excluded = [r for r in self.rows if r not in full]
            self.means_over = full
            if full:
                self.mean_rows = [(k, {c: MEANS[k](self.cells[(r, c)] for r in full) for c in self.cols})
                                  for k in kinds]
        else:
            self.means_over = []

    def value(self, row, col):
        for name, vals in self.mean_rows:
            if name == row:
                return vals.get(col)
        return self.cells.get((row, col))

    def fmt_cell(self, v):
        if v is FAIL:
            return "FAIL"
        if v is None:
            return "n/a"
        return self.fmt.format(v)

    def text(self):
        head = [self.row_label] + self.cols
        body = [[r] + [self.fmt_cell(self.cells.get((r, c))) for c in self.cols] for r in self.rows]
        tail = [[n] + [self.fmt_cell(vals[c]) for c in self.cols] for n, vals in self.mean_rows]
        allrows = [head] + body + tail
        w = [max(len(x[i]) for x in allrows) for i in range(len(head))]

        def line(cells):
            return "  ".join(cells[0].ljust(w[0]) if i == 0 else cells[i].rjust(w[i])
                             for i in range(len(cells))).rstrip()

        sep = "-" * len(line(["-" * x for x in w]))
        out = [self.title + (f" [{self.unit}]" if self.unit else ""), line(head), sep]
        out += [line(r) for r in body]
        if tail:
            out.append(sep)
            out += [line(r) for r in tail]
        notes = []
        if self.excluded and self.mean_rows:
            notes.append("means exclude " + ", ".join(self.excluded) + " (FAIL or n/a in some column)")
        elif self.excluded and len(self.excluded) == len(self.rows) and self.cols:
            notes.append("no means: every row has FAIL or n/a")
        if self.note:
            notes.append(self.note)
        out += ["  note: " + n for n in notes]
        return "\n".join(out)

    def csv(self):
        s = io.StringIO()
        wr = csv.writer(s, lineterminator="\n")
        wr.writerow([self.row_label] + self.cols)

        def cell(v):
            return "FAIL" if v is FAIL else ("n/a" if v is None else repr(float(v)))

        for r in self.rows:
            wr.writerow([r] + [cell(self.cells.get((r, c))) for c in self.cols])
        for n, vals in self.mean_rows:
            wr.writerow([n] + [cell(vals[c]) for c in self.cols])
        return s.getvalue()

    def to_json(self):
        def cell(v):
            return "FAIL" if v is FAIL else (None if v is None else float(v))

        return {
            "name": self.name,
            "title": self.title,
            "unit": self.unit,
            "columns": self.cols,
            "row_label": self.row_label,
            "rows": [{"name": r, "values": {c: cell(self.cells.get((r, c))) for c in self.cols}}
                     for r in self.rows],
            "means": {n: {c: cell(vals[c]) for c in self.cols} for n, vals in self.mean_rows},
            "means_over": self.means_over,
            "excluded_from_means": self.excluded,
            "note": self.note,
        }


def metric_value(metric, res):
    """metric(res.doc); a missing statistic is reported with the run's file."""
    try:
        return metric(res.doc)
    except MissingStat as e:
        raise ExperimentError(f"{e} [{os.path.relpath(res.path) if res.path else res.workload}]") from None


def metric_table(matrix, name, title, metric, unit="", fmt="{:.3f}", normalise_to=None,
                 cols=None, rows=None, **kw):
    """Table of metric(doc) per (workload, config); with normalise_to, each cell is
    divided by the same workload's value under that config. A failed run, or a failed
    base run, is FAIL; a metric the report cannot give (None) is n/a."""
    cols = list(cols or matrix.configs)
    rows = list(rows or matrix.workloads)
    cells = {}
    for r in rows:
        base = None
        if normalise_to is not None:
            br = matrix.get(r, normalise_to)
            base = metric_value(metric, br) if br.ok else FAIL
        for c in cols:
            res = matrix.get(r, c)
            if not res.ok:
                cells[(r, c)] = FAIL
                continue
            v = metric_value(metric, res)
            if normalise_to is not None:
                v = FAIL if base is FAIL else div(v, base)
            cells[(r, c)] = v
    if normalise_to is not None and "note" not in kw:
        kw["note"] = f"each row divided by its {normalise_to} value"
    return Table(name, title, rows, cols, cells, unit=unit, fmt=fmt, **kw)


def mean_ratio(matrix, metric, num, den, rows=None):
    """(geomean, arithmetic mean, rows used) of metric[num] / metric[den] per workload,
    over the workloads (rows, default all) where both runs passed and the ratio exists."""
    vals, used = [], []
    for w in rows or matrix.workloads:
        a, b = matrix.get(w, num), matrix.get(w, den)
        if not (a.ok and b.ok):
            continue
        r = div(metric_value(metric, a), metric_value(metric, b))
        if r is not None:
            vals.append(r)
            used.append(w)
    return geomean(vals), amean(vals), used


def plain_table(title, head, rows, left=1):
    """Text of a table of strings: the first `left` columns left-aligned, the others
    right-aligned, a rule under the header (for tables that are not numbers)."""
    rows = [[str(x) for x in r] for r in rows]
    head = [str(x) for x in head]
    w = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(cells):
        return "  ".join(c.ljust(w[i]) if i < left else c.rjust(w[i]) for i, c in enumerate(cells)).rstrip()

    return "\n".join([title, line(head), "-" * len(line(["-" * x for x in w]))] + [line(r) for r in rows])


def rows_csv(head, rows):
    """CSV text of a header and rows of strings/numbers."""
    s = io.StringIO()
    wr = csv.writer(s, lineterminator="\n")
    wr.writerow(head)
    for r in rows:
        wr.writerow(r)
    return s.getvalue()


def write_table(table, outdir, chart=True):
    """Writes <name>.csv, <name>.json and (chart) the grouped bar chart <name>.png and
    <name>.pdf (matplotlib; left out, with a warning once, where it is not installed);
    returns the paths written."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    p = os.path.join(outdir, table.name + ".csv")
    with open(p, "w") as f:
        f.write(table.csv())
    paths.append(p)
    p = os.path.join(outdir, table.name + ".json")
    with open(p, "w") as f:
        json.dump(table.to_json(), f, indent=1, sort_keys=True)
        f.write("\n")
    paths.append(p)
    if chart:
        paths += write_chart(table, outdir)
    return paths


_warned = []


def write_chart(table, outdir):
    """The table's figure as PNG and PDF (plots.bar_chart); [] without matplotlib."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import plots
    if plots.pyplot() is None:
        if not _warned:
            _warned.append(1)
            log(f"warning: no figures: {plots.unavailable()}")
        return []
    return plots.save(plots.table_chart(table), os.path.join(outdir, table.name))


def runs_csv(matrix, stats):
    """One line per run: status, the raw statistics named in `stats` (blank for a
    failed run) and the error. Only what the reports hold, so it is reproducible."""
    s = io.StringIO()
    wr = csv.writer(s, lineterminator="\n")
    wr.writerow(["workload", "config", "status"] + list(stats) + ["error"])
    for w in matrix.workloads:
        for c in matrix.configs:
            r = matrix.get(w, c)
            vals = []
            for k in stats:
                t = r.doc.get("total", {}) if r.ok else {}
                vals.append(repr(float(t[k])) if k in t else "")
            wr.writerow([w, c, "ok" if r.ok else "FAIL"] + vals + [r.error])
    return s.getvalue()


# ---------------------------------------------------------------------------------
# axis helpers (kept for callers; the figures are drawn by plots.py with matplotlib)

def nice_step(span, target=6):
    """A 1/2/2.5/5 x 10^k step giving about `target` ticks over span (> 0)."""
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def nice_range(lo, hi):
    """(lo, hi, step): an axis range covering [lo, hi] on tick multiples, 0 included."""
    lo, hi = min(0.0, lo), max(0.0, hi)
    if hi - lo <= 0:
        hi = 1.0
    step = nice_step(hi - lo)
    return math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step, step


def short(v):
    """Compact value label: 3 significant digits (trailing zeros kept: 1.00, 0.990),
    k/M/G for large values."""
    a = abs(v)
    for lim, unit, suf in ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k")):
        if a >= lim:
            return f"{v / unit:.3g}{suf}"
    if a == 0:
        return "0"
    if a >= 100:
        return f"{v:.0f}"
    return f"{v:#.3g}".rstrip(".")


def tick_label(v, step):
    """Tick value with the decimals the step needs (0.25 -> 2, 0.5 -> 1, 20 -> 0)."""
    if abs(v) >= 1e4:
        return short(v)
    dec = 0
    while dec < 9 and abs(round(step, dec) - step) > 1e-9 * max(1.0, step):
        dec += 1
    return f"{v:.{dec}f}"


# ---------------------------------------------------------------------------------
# command line

def add_common_args(ap, default_out):
    ap.add_argument("--size", default="default", choices=("small", "default", "large", "paper"),
                    help="workload input size (default: default)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="runs at a time (default: the host's cores, %(default)s)")
    ap.add_argument("--force", action="store_true", help="rerun even when a run's JSON exists")
    ap.add_argument("--set", action="append", default=[], metavar="K=V",
                    help="configuration override passed to every run (repeatable)")
    ap.add_argument("--config", default="gtx480", help="configuration preset or INI file (default: gtx480)")
    ap.add_argument("--out", default=None,
                    help=f"output directory (default: {os.path.relpath(default_out, REPO)}[-SIZE] "
                         "under the repository)")
    ap.add_argument("--warpsim", default=None, help="warpsim executable (default: $WARPSIM, build/warpsim)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds allowed per run (default: none)")
    g = ap.add_argument_group("backend (docs/SWEEPS.md)")
    g.add_argument("--backend", choices=("local", "slurm"), default="local",
                   help="local: a pool of -j processes on this host (default); slurm: one sbatch array, "
                        "--out must be on a file system the compute nodes share")
    g.add_argument("--partition", help="slurm: sbatch --partition")
    g.add_argument("--time", help="slurm: sbatch --time per array task")
    g.add_argument("--mem", help="slurm: sbatch --mem per array task")
    g.add_argument("--batch", type=int, default=1, help="slurm: runs per array task (default 1)")
    g.add_argument("--max-retries", type=int, default=2,
                   help="slurm: resubmissions of tasks that died (time limit, memory, node failure)")
    g.add_argument("--poll", type=float, default=10, help="slurm: seconds between squeue polls (default 10)")
    return ap


def slurm_opts(args):
    """The Slurm options of add_common_args' arguments, or None for the local backend
    (pass as run_matrix(..., slurm=slurm_opts(args)))."""
    if getattr(args, "backend", "local") != "slurm":
        return None
    return {k: getattr(args, k) for k in ("partition", "time", "mem", "batch", "max_retries", "poll")
            if getattr(args, k, None) is not None}


def out_dir(args, experiment):
    """--out, else experiments/out/<experiment> (default size) or <experiment>-<size>."""
    if args.out:
        return os.path.abspath(args.out)
    return os.path.join(OUT_ROOT, experiment if args.size == "default" else f"{experiment}-{args.size}")


def config_args(args):
    out = ["--config", args.config]
    for s in args.set:
        if "=" not in s:
            raise ExperimentError(f"--set {s!r}: expected section.key=value")
        out += ["--set", s]
    return out
