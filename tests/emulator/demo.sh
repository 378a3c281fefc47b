#!/usr/bin/env bash
# `make demo`: starts the bundled Lichess emulator with the demo scenario, runs `outpost run`
# against it (no token, loopback only), and prints the game's moves and result when it ends.
set -euo pipefail

build_dir=${1:-build/release}
root=$(cd "$(dirname "$0")/../.." && pwd)
outpost="$build_dir/service/outpost"
emulator="$build_dir/tests/emulator/outpost-emulator"
for bin in "$outpost" "$emulator"; do
    [[ -x "$bin" ]] || { echo "demo: $bin is missing; build first (make build)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/outpost-demo.XXXXXX)
emu_pid=""
bot_pid=""
cleanup() {
    [[ -n "$bot_pid" ]] && kill "$bot_pid" 2>/dev/null || true
    [[ -n "$emu_pid" ]] && kill "$emu_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

"$emulator" --scenario "$root/tests/emulator/scenarios/demo.yml" --port 0 \
    --report "$work/report.json" > "$work/emulator.out" 2> "$work/emulator.log" &
emu_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o '127.0.0.1:[0-9]*' "$work/emulator.out" 2>/dev/null | head -1 | cut -d: -f2 || true)
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "demo: the emulator did not start:" >&2; cat "$work/emulator.log" >&2; exit 1; }

# The demo scenario's account token; it only opens the emulator on this machine.
cat > "$work/config.yml" <<CONFIG
token: lip_demo_token
url: http://127.0.0.1:$port
health:
  listen: ""
pgn_directory: $work/pgn
CONFIG
chmod 600 "$work/config.yml"

echo "demo: emulator on 127.0.0.1:$port; starting outpost (log: $work/outpost.log)"
"$outpost" run --config "$work/config.yml" > "$work/outpost.log" 2>&1 &
bot_pid=$!

# Show the bot's move lines while the game runs; the emulator exits when the game is over.
tail -n +1 -f "$work/outpost.log" --pid "$emu_pid" | grep --line-buffered -E " move | over |accepted|error|critical" || true
wait "$emu_pid" || true
emu_pid=""
kill -TERM "$bot_pid" 2>/dev/null || true
wait "$bot_pid" 2>/dev/null || true
bot_pid=""

echo
echo "== result (from the emulator) =="
sed -n '/^game /,$p' "$work/emulator.out"
if ls "$work/pgn"/*.pgn > /dev/null 2>&1; then
    echo
    echo "== PGN written by outpost =="
    cat "$work/pgn"/*.pgn
fi
grep -q "result:" "$work/emulator.out"
