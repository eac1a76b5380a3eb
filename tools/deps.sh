#!/usr/bin/env bash
# Installs the Debian packages warpsim needs, only those missing. Safe to re-run.
set -euo pipefail
pkgs=(cmake ninja-build gcc clang pkg-config python3 libinih-dev libcjson-dev libcmocka-dev libzstd-dev)
[ "${WARPSIM_PLOTS:-0}" = 1 ] && pkgs+=(gnuplot-nox python3-matplotlib)   # plots; tools/plot_validation.py
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "warpsim: installing ${missing[*]}" >&2
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
