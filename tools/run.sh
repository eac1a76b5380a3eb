#!/usr/bin/env bash
# Builds warpsim (Release) and runs the main job.
#
#   tools/run.sh                      the default workload in timing mode, then a short
#                                     summary (cycles, IPC, where the issue slots went,
#                                     L1D/L2 hit ratios, simulation speed) and a PNG of
#                                     the issue-slot breakdown
#   tools/run.sh --mode functional    the same workload, functional mode only
#   tools/run.sh ARGS...              any other arguments go to `warpsim run`
#                                     (e.g. tools/run.sh --mode timing --size small lps)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build >/dev/null
[ $# -gt 0 ] && exec build/warpsim run "$@"

out=build/main-job
mkdir -p "$out"
build/warpsim run --mode timing --json "$out/report.json"
echo
# Debian's python3 has python3-matplotlib; tools/summary.py also finds it from another python3
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" tools/summary.py "$out/report.json" --png "$out/issue_slots.png"
echo "  full statistics   $out/report.json (docs/STATS.md); functional mode: tools/run.sh --mode functional"
