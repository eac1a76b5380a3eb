#!/usr/bin/env bash
# Regenerates the PTX of the end-to-end test kernels with nvcc (CUDA 13).
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$NVCC" -ptx -arch=compute_75 -O3 e2e.cu -o e2e.ptx
[ -f ../host/host_vecadd.cu ] && "$NVCC" -ptx -arch=compute_75 -O3 ../host/host_vecadd.cu -o ../host/host_vecadd.ptx
echo ok
