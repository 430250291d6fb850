# The set-up the examples share; sourced as `. Examples/common.sh FILE STEP DAY HOUR [DATABASE]`
# from the package's root:
# - NAVDB: the binary (default .build/release/navdb, then .build/debug/navdb);
# - NAVDB_PATH: DATABASE, or FILE in a temporary directory removed at exit; emptied first;
# - tick: the next step's time in `now`, STEP seconds after the one before, from HOUR:00 on DAY;
# - nav ARGS...: `navdb ARGS --time <next step>`, its output dropped.
NAVDB=${NAVDB:-}
if [ -z "$NAVDB" ]; then
  for candidate in .build/release/navdb .build/debug/navdb; do
    if [ -x "$candidate" ]; then NAVDB=$candidate; break; fi
  done
fi
[ -n "$NAVDB" ] || { echo "navdb is not built: run scripts/build-release.sh first" >&2; exit 1; }
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
export NAVDB_PATH=${5:-$workdir/$1}
rm -f "$NAVDB_PATH" "$NAVDB_PATH-wal" "$NAVDB_PATH-shm"

step=$2 day=$3 hour=$4 t=0
tick() { t=$((t + step)); printf -v now '%sT%s:%02d:%02dZ' "$day" "$hour" $((t / 60)) $((t % 60)); }
nav() { tick; "$NAVDB" "$@" --time "$now" >/dev/null; }
