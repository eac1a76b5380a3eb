#!/usr/bin/env bash
# Simulation speed over the workload suite (functional emulator, or the timing model).
# Usage: [MODE=timing] [CONFIG=preset] [SET=k=v,k=v] [CSV=file] [BIN=warpsim] [COMMIT=id]
#        [REPS=n] tools/speed.sh [size] [workload...]
#   (size default: default; all workloads; MODE default: functional)
# Prints per workload: warp and thread instructions, host seconds of simulation
# (kernel launches only, wall clock), the rates and the process's peak resident memory
# (MB, the whole `warpsim run`: host arrays, device memory touched, simulator state);
# then the suite's aggregate rate and the largest peak. `cpu s` is the CPU time of the
# whole process (setup, input generation and the CPU check included) and `Mw/cpu-s`
# warp instructions per CPU second: a lower bound of the rate that a loaded (shared)
# machine does not distort the way it distorts wall-clock seconds.
# REPS=n (default 1): n passes over the workloads, one after the other; each workload's
# row is its fastest pass (least host seconds: a busy or noisy host only adds time),
# and `spread` its slowest pass over its fastest (1.00 with one pass).
# Writes the same table as CSV (CSV, default build/speed.csv): one row per workload and
# a last row `suite`, each with the commit measured (COMMIT, default this tree's HEAD,
# "-dirty" with uncommitted changes), the mode, configuration, size and date. BIN runs
# another build (e.g. a baseline) instead of build/warpsim.
# A benchmark, not a test: the rates depend on the machine and its load (bench/README.md
# keeps the history).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-default}; shift || true
bin=${BIN:-build/warpsim}
[ -x "$bin" ] || { tools/deps.sh; cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; ninja -C build >/dev/null; }
csv=${CSV:-build/speed.csv}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "${COMMIT:-}" ] && ! git diff --quiet HEAD 2>/dev/null; then commit="$commit-dirty"; fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($("$bin" list --workloads 2>/dev/null || "$bin" list | awk '/^workloads/{f=1;next} /^$/{f=0} f&&NF{print $1}'))
reps=${REPS:-1}
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "speed.sh: REPS must be a positive integer (got '$reps')" >&2; exit 2; }
tmp=$(mktemp -d)
for ((r = 1; r <= reps; r++)); do
for n in "${names[@]}"; do
  # peak RSS of the one child: ru_maxrss of RUSAGE_CHILDREN in a process with one child
  python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{u.ru_maxrss} {u.ru_utime + u.ru_stime}")
sys.exit(r)' "$tmp/$n.$r.rss" "$bin" run --mode "${MODE:-functional}" ${CONFIG:+--config "$CONFIG"} ${SET:+--set "$SET"} --no-report \
    --json "$tmp/$n.$r.json" "$n" --size "$size" --quiet || echo "$n: FAILED" >&2
done
done
mkdir -p "$(dirname "$csv")"
python3 - "$tmp" "$csv" "$commit" "${MODE:-functional}" "${CONFIG:-}" "${SET:-}" "$size" "$reps" "${names[@]}" <<'PY'
import csv, datetime, json, os, sys
d, out, commit, mode, config, sets, size, reps = sys.argv[1:9]
W = T = S = C = R = U = 0
rows = []
print(f"{'workload':22s} {'warp insts':>12s} {'thread insts':>14s} {'seconds':>8s} {'Mthr/s':>8s} {'Mwarp/s':>8s} {'kcyc/s':>8s} {'peakMB':>7s} {'cpu s':>8s} {'Mw/cpu-s':>8s} {'spread':>6s}")
def row(n, w, th, s, c, rss, u, sp):
    s = max(s, 1e-9)   # a run too short for the clock
    u = max(u, 1e-9)
    print(f"{n:22s} {w:12d} {th:14d} {s:8.3f} {th/s/1e6:8.1f} {w/s/1e6:8.2f} {c/s/1e3:8.1f} {rss:7.0f} {u:8.2f} {w/u/1e6:8.2f} {sp:6.2f}")
    rows.append([n, w, th, c, f"{s:.3f}", f"{th/s/1e6:.2f}", f"{w/s/1e6:.3f}", f"{c/s/1e3:.1f}", f"{rss:.0f}",
                 f"{u:.2f}", f"{w/u/1e6:.3f}", reps, f"{sp:.2f}"])
SP = 1.0
for n in sys.argv[9:]:
    runs = []   # (host seconds, total, rss KB, cpu s) of each pass that finished
    for r in range(1, int(reps) + 1):
        p = os.path.join(d, f"{n}.{r}.json")
        if not os.path.exists(p): continue
        t = json.load(open(p))["total"]
        rp = os.path.join(d, f"{n}.{r}.rss")
        rss, u = (float(x) for x in open(rp).read().split()) if os.path.exists(rp) else (0.0, 0.0)
        runs.append((t["host_seconds"], t, rss, u))
    if not runs: continue
    s, t, _, u = min(runs, key=lambda x: x[0])   # the fastest pass
    sp = max(x[0] for x in runs) / max(s, 1e-9)
    rss = max(x[2] for x in runs) / 1024
    w, th, c = t["warp_insts"], t["thread_insts"], t.get("cycles", 0)
    W += w; T += th; S += s; C += c
    R = max(R, rss); U += u; SP = max(SP, sp)
    row(n, w, th, s, c, rss, u, sp)
if S:
    row("suite", W, T, S, C, R, U, SP)
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(out, "w", newline="") as f:
    wr = csv.writer(f)
    wr.writerow(["commit", "date", "mode", "config", "set", "size", "workload", "warp_insts",
                 "thread_insts", "cycles", "seconds", "mthread_insts_per_s", "mwarp_insts_per_s",
                 "kcycles_per_s", "peak_mb", "process_cpu_seconds", "mwarp_insts_per_cpu_s",
                 "passes", "spread"])
    for r in rows:
        wr.writerow([commit, date, mode, config, sets, size] + r)
print(f"(CSV: {out}, commit {commit})")
PY
rm -rf "$tmp"
