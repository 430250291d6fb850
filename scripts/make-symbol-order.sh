#!/usr/bin/env bash
# Writes scripts/navdb.order, the code layout scripts/build-release.sh links navdb with: every
# function that one-shot commands run, each name once, in the order of the runs (pushes first,
# the figure of navdb-bench row 3). Builds the same code unordered in a temporary folder, runs
# each command under valgrind's callgrind (apt-get install valgrind) on a small database, and
# takes the names of the functions it executed. Run it after changes that rename or add
# functions on these paths; a stale file only lays the code out less well.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "make-symbol-order.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
swift build -c release -Xswiftc -static-executable -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -use-ld=lld --product navdb --scratch-path "$scratch/build" >&2
navdb=$scratch/build/release/navdb
db=$scratch/profile.sqlite
"$navdb" --db "$db" session start s >/dev/null
for i in 1 2 3; do "$navdb" --db "$db" push s "a$i" --title "Screen $i" >/dev/null; done
runs=(
  "push s b1 --title Inbox --route app://inbox"
  "push s b2 --title Message --param id=42 --back-button-title Back"
  "pop s"
  "update s b1 --title Renamed"
  "back s"
  "pop-to s a1"
  "stack s"
  "show s"
  "back-menu s"
  "history s"
  "sessions"
  "--json stack s"
  "session start t"
  "--version"
)
n=0
for run in "${runs[@]}"; do
  n=$((n + 1))
  # shellcheck disable=SC2086 # each run is words
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$scratch/run.$n" "$navdb" --db "$db" $run \
    >/dev/null 2>"$scratch/valgrind.$n" || { echo "navdb $run failed:" >&2; cat "$scratch/valgrind.$n" >&2; exit 1; }
done
# A callgrind file names a function once, as `fn=(id) name` or `cfn=(id) name`, then by id alone;
# `fn=` lines start the functions that ran. Names with a space or a quote (callgrind's `'2` copies
# of a recursive call) are no symbols.
for i in $(seq 1 "$n"); do
  awk '
    match($0, /^c?fn=\([0-9]+\)/) {
      id = substr($0, RSTART, RLENGTH); sub(/^c?fn=/, "", id)
      rest = substr($0, RLENGTH + 2)
      if (rest != "") name[id] = rest
      if ($0 ~ /^fn=/ && (id in name) && name[id] !~ /[ \047]/ && name[id] !~ /^0x/) print name[id]
    }' "$scratch/run.$i" | sort -u >"$scratch/names.$i"
done
# Each run's new names in the order the unordered build laid them out (callgrind lists them in no
# fixed order), the runs one after the other: the same code gives the same file.
nm -n --defined-only "$navdb" | awk '{ print NR, $3 }' >"$scratch/layout"
for i in $(seq 1 "$n"); do
  awk -v run="$i" 'NR == FNR { if (!($2 in at)) at[$2] = $1; next } ($1 in at) { print run, at[$1], $1 }' \
    "$scratch/layout" "$scratch/names.$i"
done | sort -k1,1n -k2,2n | awk '!seen[$3]++ { print $3 }' >scripts/navdb.order
echo "scripts/navdb.order: $(wc -l <scripts/navdb.order) functions" >&2
