#!/usr/bin/env bash
# A faster build of the simulator for long runs: Release with link-time optimisation and
# gcc's profile-guided optimisation, trained on the workload suite. Results are identical
# to the plain Release build's (the same C operations; only code layout, inlining and
# branch order change); it takes two builds and a training run of about a minute.
#
#   tools/build-fast.sh [DIR]          builds DIR/warpsim (default DIR: build-fast)
#   BIN=build-fast/warpsim MODE=timing tools/speed.sh default    measures it
#
# The training: every workload at --size small in timing mode (GTX480, the default) and in
# functional mode, a few on the HD7970 preset and on two host threads, and the memory-bound
# ones at --size default for 100k cycles (their hot paths differ at scale). Stage one
# (WARPSIM_PGO=generate) writes the profiles beside the objects; stage two (use) rebuilds
# every object of the same directory with them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-fast}
command -v cmake >/dev/null && command -v ninja >/dev/null || tools/deps.sh
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON \
      -DWARPSIM_PGO=generate >/dev/null
find "$dir" -name '*.gcda' -delete
ninja -C "$dir" warpsim >/dev/null
bin=$dir/warpsim
names=($("$bin" list | awk '/^workloads/{f=1;next} /^$/{f=0} f&&NF{print $1}'))
[ ${#names[@]} -gt 0 ] || { echo "build-fast: no workloads listed by $bin" >&2; exit 1; }
# (a run stopped by its cycle budget exits 5: expected for the capped ones)
train() {
  local rc=0
  "$bin" run --quiet --no-report "$@" >/dev/null 2>&1 || rc=$?
  [ $rc -eq 0 ] || { [ $rc -eq 5 ] && [ "$1" = --max-cycles ]; } ||
    { echo "build-fast: training run failed (exit $rc): warpsim run $*" >&2; exit 1; }
}
echo "build-fast: training on ${#names[@]} workloads" >&2
for w in "${names[@]}"; do
  train --mode timing "$w" --size small
  train --mode functional "$w" --size small
done
for w in blk hs gaussian bfs matrixtranspose reduction; do
  train --mode timing --config hd7970 "$w" --size small
done
for w in blk gaussian; do
  train --mode timing --threads 2 "$w" --size small
done
for w in atax gups bfs red; do
  train --max-cycles 100000 --mode timing "$w" --size default
done
cmake -S . -B "$dir" -DWARPSIM_PGO=use >/dev/null
ninja -C "$dir" warpsim >/dev/null
echo "build-fast: $dir/warpsim" >&2
