#!/usr/bin/env bash
# peer_run.sh - run warpsim's bench drivers and PTX on GPGPU-Sim 4.2 (the calibration peer) only,
# one workload at a time, and keep each run's log for tools/peer_extract.py.
#
# usage: tools/peer_run.sh OUT SIZE SCHED WORKLOAD...
#   OUT/run-WORKLOAD-SIZE-SCHED/log   GPGPU-Sim's output (an existing complete log is kept:
#                                     GPGPU-Sim's cycles depend only on the workload and its config)
# environment:
#   PEER_DIR      GPGPU-Sim build (default /tmp/peer; ../shared/peer/build-gpgpusim.sh makes it)
#   PEER_SHARED   the peer tools (default: ../shared/peer next to this checkout, else /work/shared/peer)
#   PEER_OPTS     extra GPGPU-Sim options, one per line, appended to gpgpusim.config (ablations,
#                 e.g. PEER_OPTS='-gpgpu_perf_sim_memcpy 0'); a different OUT per setting
#   TMO           seconds per workload (default 3600)
# Same drivers and PTX as ../shared/peer/bench-on-peer.sh, plus tools/peer_shim_extra.c
# (cuMemsetD32). Where tools/peer_ptx/WORKLOAD.sed exists, GPGPU-Sim gets the workload's PTX
# with that script applied (an equivalent for an instruction GPGPU-Sim 4.2 lacks; the script
# says why it is equivalent there): OUT/bench/WORKLOAD/WORKLOAD.ptx. Never needed by the build
# or the tests.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "$1" && cd "$1" && pwd) SIZE=$2 SCHED=$3; shift 3
shared=${PEER_SHARED:-$root/../shared/peer}; [ -f "$shared/drvshim.c" ] || shared=/work/shared/peer
set +u; PEER_DIR=${PEER_DIR:-/tmp/peer} source "$shared/peer-env.sh"; set -u
for w in "$@"; do
  [ -f "$root/bench/$w/main.c" ] || { echo "$w: no bench/$w/main.c" >&2; continue; }
  r=$OUT/run-$w-$SIZE-$SCHED
  if [ -f "$r/log" ] && grep -q gpu_tot_sim_cycle "$r/log" && grep -qE "^$w \[$SIZE\]: (PASS|FAIL)" "$r/log"; then
    echo "$w $SIZE $SCHED: cached"; continue
  fi
  bin=$OUT/$w.peer
  if [ ! -x "$bin" ]; then
    gcc -O2 -o "$bin.$$.tmp" -I/usr/local/cuda/include -I"$root/bench/common" "$root/bench/$w/main.c" \
        "$root/bench/common/bench.c" "$shared/drvshim.c" "$root/tools/peer_shim_extra.c" \
        -L"$CUDA_INSTALL_PATH/lib" -l:libcudart.so.13 -lm 2>"$OUT/$w.cc.log" ||
      gcc -O2 -o "$bin.$$.tmp" -I/usr/local/cuda/include -I"$root/bench/common" "$root/bench/$w/main.c" \
        "$root/bench/common/bench.c" "$shared/drvshim.c" \
        -L"$CUDA_INSTALL_PATH/lib" -l:libcudart.so.13 -lm 2>"$OUT/$w.cc.log" ||
      { echo "$w: build failed ($OUT/$w.cc.log)"; continue; }
    mv "$bin.$$.tmp" "$bin"
  fi
  bench=$root/bench
  if [ -f "$root/tools/peer_ptx/$w.sed" ]; then
    bench=$OUT/bench; mkdir -p "$bench/$w"
    sed -f "$root/tools/peer_ptx/$w.sed" "$root/bench/$w/$w.ptx" > "$bench/$w/$w.ptx"
    if grep -nE 'copysign|bfind\.shiftamt' "$bench/$w/$w.ptx" >&2; then
      echo "$w: tools/peer_ptx/$w.sed left instructions GPGPU-Sim lacks (above)" >&2; continue
    fi
  fi
  rm -rf "$r"; mkdir -p "$r"; cp "$PEER_CFG"/* "$r/"
  sed -i "s/^-gpgpu_scheduler .*/-gpgpu_scheduler $SCHED/" "$r/gpgpusim.config"
  [ -n "${PEER_OPTS:-}" ] && printf '%s\n' "$PEER_OPTS" >> "$r/gpgpusim.config"
  t0=$(date +%s)
  (cd "$r" && PEER_BENCH=$bench PEER_PTX=$r/drv.ptx timeout "${TMO:-3600}" nice -n 10 "$bin" --size "$SIZE" > log 2>&1)
  rc=$?
  echo "$w $SIZE $SCHED: rc $rc, $(grep -oE 'gpu_tot_sim_cycle = [0-9]+' "$r/log" | tail -1), $(( $(date +%s) - t0 )) s"
done
