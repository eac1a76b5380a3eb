#!/usr/bin/env bash
# Simulation speed over the workload suite (functional emulator, or the timing model).
# Usage: [MODE=timing] [CONFIG=preset] [SET=k=v,k=v] tools/speed.sh [size] [workload...]
#   (size default: default; all workloads; MODE default: functional)
# Prints per workload: warp and thread instructions, host seconds of simulation
# (kernel launches only), and the rates; then the suite's aggregate rate.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-default}; shift || true
[ -x build/warpsim ] || { tools/deps.sh; cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; ninja -C build >/dev/null; }
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(build/warpsim list --workloads 2>/dev/null || build/warpsim list | awk '/^workloads/{f=1;next} /^$/{f=0} f&&NF{print $1}'))
tmp=$(mktemp -d)
for n in "${names[@]}"; do
  build/warpsim run --mode "${MODE:-functional}" ${CONFIG:+--config "$CONFIG"} ${SET:+--set "$SET"} --no-report --json "$tmp/$n.json" "$n" \
    --size "$size" --quiet >/dev/null 2>&1 || echo "$n: FAILED" >&2
done
python3 - "$tmp" "${names[@]}" <<'PY'
import json, os, sys
d = sys.argv[1]; W = T = S = 0
print(f"{'workload':22s} {'warp insts':>12s} {'thread insts':>14s} {'seconds':>8s} {'Mthr/s':>8s} {'Mwarp/s':>8s} {'kcyc/s':>8s}")
C = 0
for n in sys.argv[2:]:
    p = os.path.join(d, n + ".json")
    if not os.path.exists(p): continue
    t = json.load(open(p))["total"]
    w, th, s, c = t["warp_insts"], t["thread_insts"], t["host_seconds"], t.get("cycles", 0)
    W += w; T += th; S += s; C += c
    print(f"{n:22s} {w:12d} {th:14d} {s:8.3f} {th/s/1e6:8.1f} {w/s/1e6:8.2f} {c/s/1e3:8.1f}")
print(f"{'suite':22s} {W:12d} {T:14d} {S:8.3f} {T/S/1e6:8.1f} {W/S/1e6:8.2f} {C/S/1e3:8.1f}")
PY
rm -rf "$tmp"
