#!/usr/bin/env bash
# Host time against the number of SMs for a fixed amount of work per SM (issue 16 item 3):
# blk with a grid of K CTAs per SM at gpu.n_sm = 15, 30, 60, 120 on the qv100 preset, timing
# mode; prints the table (CPU seconds, cycles, warp instructions, host time per SM-cycle and
# per warp instruction, growth per doubling) and writes scale.csv and the plots.
# Usage: tools/scale.sh [experiments/scale/run options: --sms 15,30,60,120 --config qv100
#        --ctas-per-sm 8 --per-thread 1 --reps 3 --set K=V --scale-mem --out DIR]
# (--scale-mem: the DRAM channels and bus scaled with the SMs, so that the simulated
# cycles stay about the same and only the host's cost grows)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/warpsim ] || { tools/deps.sh; cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; ninja -C build >/dev/null; }
exec nice -n "${NICE:-5}" experiments/scale/run "$@"
