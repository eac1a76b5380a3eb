#!/usr/bin/env bash
# suite.sh - runs a directory of nvcc-built CUDA programs (built with -cudart shared) under
# `warpsim exec` and tabulates pass / fail / unsupported with the reason.
#
#   tools/suite.sh [-w WARPSIM] [-t SECONDS] [-l LIST] DIR [-- EXEC-OPTIONS...]
#
# LIST (default DIR/suite.list) has one program per line: its path relative to DIR, then
# its arguments; `#` starts a comment. Without a list file, every executable in DIR runs
# without arguments. Programs run with DIR as their working directory. EXEC-OPTIONS go
# to `warpsim exec` (e.g. --mode timing --config hd7970). A program passes when it exits
# 0 and no kernel launch faulted (many programs do not check their launches);
# "unsupported" means warpsim said so (an unimplemented runtime function, a SASS-only
# binary, the static runtime, textures, PTX it cannot load); anything else is "fail".
# Logs: DIR/.warpsim-suite/NAME.log. Exit code: 0 when nothing failed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
warpsim="$here/build/warpsim"
timeout_s=600
list=
while getopts "w:t:l:h" o; do
  case $o in
    w) warpsim=$OPTARG ;;
    t) timeout_s=$OPTARG ;;
    l) list=$OPTARG ;;
    *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: tools/suite.sh [-w WARPSIM] [-t SECONDS] [-l LIST] DIR [-- EXEC-OPTIONS...]" >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 2
shift
[ "${1:-}" = "--" ] && shift
[ -x "$warpsim" ] || { echo "suite.sh: $warpsim not found (build first, or -w)" >&2; exit 2; }
[ -n "$list" ] || list="$dir/suite.list"
logs="$dir/.warpsim-suite"
mkdir -p "$logs"

entries=()
if [ -f "$list" ]; then
  while IFS= read -r line; do
    line=${line%%#*}
    [ -n "${line//[[:space:]]/}" ] && entries+=("$line")
  done < "$list"
else
  while IFS= read -r f; do entries+=("${f#"$dir"/}"); done \
    < <(find "$dir" -maxdepth 2 -type f -perm -u+x -not -path "$logs/*" | sort)
fi

reason() {   # the first line of the log that explains a failure
  grep -m1 -E "$1" "$2" | cut -c1-110
}
npass=0 nfail=0 nuns=0
printf '%-28s %-12s %8s  %s\n' program result seconds reason
for e in "${entries[@]}"; do
  read -r -a words <<< "$e"
  prog=${words[0]}
  name=$(basename "$prog")
  log="$logs/$name.log"
  t0=$(date +%s.%N)
  (cd "$dir" && timeout "$timeout_s" "$warpsim" exec "$@" -- "./$prog" "${words[@]:1}") > "$log" 2>&1
  rc=$?
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  uns=$(reason "not implemented by warpsim|only SASS|did not use warpsim's libcudart|are not implemented|newer than warpsim accepts|unsupported" "$log")
  faulted=$(reason "^warpsim: cuLaunchKernel|^warpsim: [0-9]+ launch(es)? failed" "$log")
  if [ $rc -eq 0 ] && [ -z "$faulted" ]; then
    res=pass; why=$(reason "^warpsim: [0-9]+ launch" "$log" | sed 's/^warpsim: //; s/, config.*//')
    npass=$((npass + 1))
  elif [ $rc -eq 0 ]; then   # the program did not check, but a kernel faulted
    res=fail; why=$faulted; nfail=$((nfail + 1))
  elif [ -n "$uns" ]; then
    res=unsupported; why=$uns; nuns=$((nuns + 1))
  else
    res=fail; nfail=$((nfail + 1))
    [ $rc -eq 124 ] && why="timeout after ${timeout_s}s" || \
      why="exit $rc: $(reason "warpsim:|error|Error|FAIL|fail" "$log")"
  fi
  printf '%-28s %-12s %8s  %s\n' "$name" "$res" "$secs" "$why"
done
echo "pass $npass, fail $nfail, unsupported $nuns (logs: $logs)"
[ $nfail -eq 0 ]
