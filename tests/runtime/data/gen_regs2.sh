#!/bin/sh
# Builds the fatbinaries of regs2.cu that tests/runtime/test_fatbin.c reads (SASS register
# counts), and regs2_ptxas.txt, the `ptxas -v` lines the test's expected counts come from.
# Committed outputs (CUDA 13.0, nvcc V13.0.88):
#   regs2.fatbin       sm_86 SASS, sm_75 SASS (in that order), compute_75 PTX (zstd);
#                      the SASS uncompressed (nvcc's default)
#   regs2_zstd.fatbin  the same with --compress-mode=size: SASS zstd-compressed too
#   regs2_lz4.fatbin   the same with --compress-mode=speed -Xfatbin -compress-all: SASS
#                      and PTX as LZ4 blocks (flags 0x2011)
# Usage: tests/runtime/data/gen_regs2.sh [NVCC]   (run from anywhere; needs objcopy)
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arch="-gencode arch=compute_86,code=sm_86 -gencode arch=compute_75,code=sm_75
      -gencode arch=compute_75,code=compute_75"
build() {   # name, extra options
    # shellcheck disable=SC2086
    "$nvcc" -cudart shared $arch $2 -Xptxas -v -o "$tmp/$1" "$here/regs2.cu" 2>"$tmp/$1.log"
    objcopy -O binary --only-section=.nv_fatbin "$tmp/$1" "$here/$1.fatbin"
}
build regs2 ""
build regs2_zstd "--compress-mode=size"
build regs2_lz4 "--compress-mode=speed -Xfatbin -compress-all"
{
    "$nvcc" --version | tail -n 2
    grep -E "Compiling entry function|Used [0-9]+ registers" "$tmp/regs2.log" |
        sed -E 's/^ptxas info *: //; s/, used [0-9]+ barriers.*//'
} >"$here/regs2_ptxas.txt"
cat "$here/regs2_ptxas.txt"
