#!/usr/bin/env bash
# Simulation speed over the workload suite (functional emulator, or the timing model).
# Usage: [MODE=timing] [CONFIG=preset] [SET=k=v,k=v] tools/speed.sh [size] [workload...]
#   (size default: default; all workloads; MODE default: functional)
# Prints per workload: warp and thread instructions, host seconds of simulation
# (kernel launches only), the rates and the process's peak resident memory (MB, the
# whole `warpsim run`: host arrays, device memory touched, simulator state); then the
# suite's aggregate rate and the largest peak.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-default}; shift || true
[ -x build/warpsim ] || { tools/deps.sh; cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; ninja -C build >/dev/null; }
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(build/warpsim list --workloads 2>/dev/null || build/warpsim list | awk '/^workloads/{f=1;next} /^$/{f=0} f&&NF{print $1}'))
tmp=$(mktemp -d)
for n in "${names[@]}"; do
  # peak RSS of the one child: ru_maxrss of RUSAGE_CHILDREN in a process with one child
  python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(r)' "$tmp/$n.rss" build/warpsim run --mode "${MODE:-functional}" ${CONFIG:+--config "$CONFIG"} ${SET:+--set "$SET"} --no-report \
    --json "$tmp/$n.json" "$n" --size "$size" --quiet || echo "$n: FAILED" >&2
done
python3 - "$tmp" "${names[@]}" <<'PY'
import json, os, sys
d = sys.argv[1]; W = T = S = 0
print(f"{'workload':22s} {'warp insts':>12s} {'thread insts':>14s} {'seconds':>8s} {'Mthr/s':>8s} {'Mwarp/s':>8s} {'kcyc/s':>8s} {'peakMB':>7s}")
C = 0; R = 0
for n in sys.argv[2:]:
    p = os.path.join(d, n + ".json")
    if not os.path.exists(p): continue
    t = json.load(open(p))["total"]
    w, th, s, c = t["warp_insts"], t["thread_insts"], t["host_seconds"], t.get("cycles", 0)
    W += w; T += th; S += s; C += c
    rp = os.path.join(d, n + ".rss")
    rss = int(open(rp).read()) / 1024 if os.path.exists(rp) else 0.0
    R = max(R, rss)
    print(f"{n:22s} {w:12d} {th:14d} {s:8.3f} {th/s/1e6:8.1f} {w/s/1e6:8.2f} {c/s/1e3:8.1f} {rss:7.0f}")
print(f"{'suite':22s} {W:12d} {T:14d} {S:8.3f} {T/S/1e6:8.1f} {W/S/1e6:8.2f} {C/S/1e3:8.1f} {R:7.0f}")
PY
rm -rf "$tmp"
