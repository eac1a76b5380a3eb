#!/usr/bin/env bash
# Builds warpsim (Release) and runs the main job: the built-in default workload.
# Extra arguments go to `warpsim run` (e.g. tools/run.sh --size small lps).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build >/dev/null
exec build/warpsim run "$@"
