#!/usr/bin/env bash
# Regenerates every bench/<name>/<name>.ptx from its .cu with nvcc (CUDA 13), then ends
# each with the registers per thread ptxas allocates (tools/ptxas_regs.py: `.pragma
# "warpsim.regs NAME N";`, what warpsim's occupancy uses, as GPGPU-Sim uses ptxas -v).
# Usage: bench/gen_ptx.sh [name...]   (default: all workloads)
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "gen_ptx.sh: nvcc not found (set NVCC)" >&2; exit 1; }
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls -d */ | tr -d / | grep -v '^common$'))
for n in "${names[@]}"; do
  for cu in "$n"/*.cu; do
    [ -e "$cu" ] || continue
    "$NVCC" -ptx -arch=compute_75 -O3 "$cu" -o "${cu%.cu}.ptx"
    echo "$cu -> ${cu%.cu}.ptx"
    python3 ../tools/ptxas_regs.py --ptxas "$(dirname "$NVCC")/ptxas" "${cu%.cu}.ptx"
  done
done
