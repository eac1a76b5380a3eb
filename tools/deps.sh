#!/usr/bin/env bash
# Installs the Debian packages warpsim needs, only those missing. Safe to re-run.
#   tools/deps.sh          build, run, experiments and their figures (python3-matplotlib)
#   tools/deps.sh --test   also a one-node Slurm for the sweep backend's end-to-end test
#                          (munge, slurmctld, slurmd, slurm-client; the test starts and
#                          stops its own daemons). Best effort: where they cannot be
#                          installed, that test says so and is skipped.
set -euo pipefail
pkgs=(cmake ninja-build gcc clang pkg-config python3 python3-matplotlib libinih-dev libcjson-dev
      libcmocka-dev libzstd-dev liblz4-dev)
extra=()
[ "${1:-}" = --test ] && extra=(munge slurmctld slurmd slurm-client)

missing_of() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(missing_of "${pkgs[@]}")
mapfile -t missing_extra < <(missing_of "${extra[@]}")
[ ${#missing[@]} -eq 0 ] && [ ${#missing_extra[@]} -eq 0 ] && exit 0
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
updated=0
install() {
  [ $updated = 1 ] || { $SUDO apt-get update -qq && updated=1; }
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ ${#missing[@]} -gt 0 ]; then
  echo "warpsim: installing ${missing[*]}" >&2
  install "${missing[@]}"
fi
if [ ${#missing_extra[@]} -gt 0 ]; then
  echo "warpsim: installing (for tests) ${missing_extra[*]}" >&2
  install "${missing_extra[@]}" ||
    echo "warpsim: could not install ${missing_extra[*]}: the Slurm end-to-end test will be skipped" >&2
fi
