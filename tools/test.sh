#!/usr/bin/env bash
# Builds warpsim and runs every test: the normal build with gcc, the sanitizer
# build (ASan + UBSan) with clang, and every fuzz target for a bounded time (docs/TESTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh --test
jobs=$(nproc)
echo "== gcc build, all tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build
ctest --test-dir build --output-on-failure -j "$jobs"
echo "== clang ASan+UBSan build, all tests and the fuzzer"
CC=clang cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON -DWARPSIM_FUZZ=ON >/dev/null
ninja -C build-san
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-san --output-on-failure -j "$jobs"
