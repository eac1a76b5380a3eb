#!/usr/bin/env bash
# Simulation speed over the workload suite (functional emulator, or the timing model).
# Usage: [MODE=timing] [CONFIG=preset] [SET=k=v,k=v] [CSV=file] [BIN=warpsim] [COMMIT=id]
#        tools/speed.sh [size] [workload...]
#   (size default: default; all workloads; MODE default: functional)
# Prints per workload: warp and thread instructions, host seconds of simulation
# (kernel launches only), the rates and the process's peak resident memory (MB, the
# whole `warpsim run`: host arrays, device memory touched, simulator state); then the
# suite's aggregate rate and the largest peak.
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
tmp=$(mktemp -d)
for n in "${names[@]}"; do
  # peak RSS of the one child: ru_maxrss of RUSAGE_CHILDREN in a process with one child
  python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(r)' "$tmp/$n.rss" "$bin" run --mode "${MODE:-functional}" ${CONFIG:+--config "$CONFIG"} ${SET:+--set "$SET"} --no-report \
    --json "$tmp/$n.json" "$n" --size "$size" --quiet || echo "$n: FAILED" >&2
done
mkdir -p "$(dirname "$csv")"
python3 - "$tmp" "$csv" "$commit" "${MODE:-functional}" "${CONFIG:-}" "${SET:-}" "$size" "${names[@]}" <<'PY'
import csv, datetime, json, os, sys
d, out, commit, mode, config, sets, size = sys.argv[1:8]
W = T = S = C = R = 0
rows = []
print(f"{'workload':22s} {'warp insts':>12s} {'thread insts':>14s} {'seconds':>8s} {'Mthr/s':>8s} {'Mwarp/s':>8s} {'kcyc/s':>8s} {'peakMB':>7s}")
def row(n, w, th, s, c, rss):
    s = max(s, 1e-9)   # a run too short for the clock
    print(f"{n:22s} {w:12d} {th:14d} {s:8.3f} {th/s/1e6:8.1f} {w/s/1e6:8.2f} {c/s/1e3:8.1f} {rss:7.0f}")
    rows.append([n, w, th, c, f"{s:.3f}", f"{th/s/1e6:.2f}", f"{w/s/1e6:.3f}", f"{c/s/1e3:.1f}", f"{rss:.0f}"])
for n in sys.argv[8:]:
    p = os.path.join(d, n + ".json")
    if not os.path.exists(p): continue
    t = json.load(open(p))["total"]
    w, th, s, c = t["warp_insts"], t["thread_insts"], t["host_seconds"], t.get("cycles", 0)
    W += w; T += th; S += s; C += c
    rp = os.path.join(d, n + ".rss")
    rss = int(open(rp).read()) / 1024 if os.path.exists(rp) else 0.0
    R = max(R, rss)
    row(n, w, th, s, c, rss)
if S:
    row("suite", W, T, S, C, R)
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(out, "w", newline="") as f:
    wr = csv.writer(f)
    wr.writerow(["commit", "date", "mode", "config", "set", "size", "workload", "warp_insts",
                 "thread_insts", "cycles", "seconds", "mthread_insts_per_s", "mwarp_insts_per_s",
                 "kcycles_per_s", "peak_mb"])
    for r in rows:
        wr.writerow([commit, date, mode, config, sets, size] + r)
print(f"(CSV: {out}, commit {commit})")
PY
rm -rf "$tmp"
