#!/usr/bin/env bash
# `make demo`: starts the bundled Lichess emulator with the demo scenario, runs `outpost run`
# against it (no token, loopback only), prints each move the bot plays as it plays it and the
# address of the bot's status page (its health endpoint), and the result and PGN at the end.
#
# usage: tests/emulator/demo.sh [BUILD_DIR (default build/release)] [--clock LIMIT+INCREMENT]
#   --clock 30+0: the game's clock in seconds and increment (default: the scenario's 60+2, about
#   a minute of play); a shorter one makes a quicker game.
set -euo pipefail

build_dir=build/release
clock=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --clock) clock=${2:-}; shift ;;
        -*) echo "demo: unknown option '$1'" >&2; exit 2 ;;
        *) build_dir=$1 ;;
    esac
    shift
done
root=$(cd "$(dirname "$0")/../.." && pwd)
outpost="$build_dir/service/outpost"
emulator="$build_dir/tests/emulator/outpost-emulator"
for bin in "$outpost" "$emulator"; do
    [[ -x "$bin" ]] || { echo "demo: $bin is missing; build first (make build)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/outpost-demo.XXXXXX")
scenario="$root/tests/emulator/scenarios/demo.yml"
if [[ -n "$clock" ]]; then
    [[ "$clock" =~ ^([0-9]+)\+([0-9]+)$ ]] || { echo "demo: --clock wants LIMIT+INCREMENT in seconds, e.g. 30+0" >&2; exit 2; }
    sed -E "s/^( *clock: )\{limit: [0-9]+, increment: [0-9]+\}/\1{limit: ${BASH_REMATCH[1]}, increment: ${BASH_REMATCH[2]}}/" \
        "$scenario" > "$work/demo.yml"
    grep -q "clock: {limit: ${BASH_REMATCH[1]}, increment: ${BASH_REMATCH[2]}}" "$work/demo.yml" ||
        { echo "demo: cannot set the clock in $scenario" >&2; exit 1; }
    scenario="$work/demo.yml"
fi

emu_pid=""
bot_pid=""
show_pid=""
cleanup() {
    local pid
    for pid in "$bot_pid" "$emu_pid" "$show_pid"; do
        if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; fi
    done
    wait 2>/dev/null || true
}
trap cleanup EXIT

"$emulator" --scenario "$scenario" --port 0 \
    --report "$work/report.json" > "$work/emulator.out" 2> "$work/emulator.log" &
emu_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o '127.0.0.1:[0-9]*' "$work/emulator.out" 2>/dev/null | head -1 | cut -d: -f2 || true)
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "demo: the emulator did not start:" >&2; cat "$work/emulator.log" >&2; exit 1; }

# The demo scenario's account token; it only opens the emulator on this machine. The health
# endpoint (the status page, /healthz, /metrics) takes a free loopback port.
cat > "$work/config.yml" <<CONFIG
token: lip_demo_token
url: http://127.0.0.1:$port
health:
  listen: "127.0.0.1:0"
pgn_directory: $work/pgn
CONFIG
chmod 600 "$work/config.yml"

echo "demo: emulator on 127.0.0.1:$port; starting outpost (log: $work/outpost.log)"
# The bot's output goes through a pipe to a reader started first, which keeps all of it in
# outpost.log and shows the lines worth watching as they come: no file to wait for.
mkfifo "$work/outpost.fifo"
show_output() {
    local line address
    while IFS= read -r line; do
        printf '%s\n' "$line" >&3
        if [[ $line == *"health endpoint on http://"*/healthz* ]]; then
            address=${line##*health endpoint on }
            address=${address%/healthz*}/
            echo "demo: the bot's status page: $address  (also ${address}healthz and ${address}metrics)"
        fi
        if [[ $line =~ \ move\ |\ over\ |accepted|declined|error|critical ]]; then printf '%s\n' "$line"; fi
    done 3> "$work/outpost.log"
}
show_output < "$work/outpost.fifo" &
show_pid=$!
"$outpost" run --config "$work/config.yml" > "$work/outpost.fifo" 2>&1 &
bot_pid=$!

# The emulator exits when the game is over; the bot should not exit before it.
wait -n "$emu_pid" "$bot_pid" || true
if ! kill -0 "$bot_pid" 2>/dev/null; then
    wait "$show_pid" 2>/dev/null || true
    echo "demo: outpost stopped before the game ended; its log:" >&2
    cat "$work/outpost.log" >&2
    exit 1
fi
wait "$emu_pid" || true
emu_pid=""
kill -TERM "$bot_pid" 2>/dev/null || true
wait "$bot_pid" 2>/dev/null || true
bot_pid=""
wait "$show_pid" 2>/dev/null || true  # the pipe closed with the bot: every line is shown
show_pid=""

echo
echo "== result (from the emulator) =="
sed -n '/^game /,$p' "$work/emulator.out"
if ls "$work/pgn"/*.pgn > /dev/null 2>&1; then
    echo
    echo "== PGN written by outpost =="
    cat "$work/pgn"/*.pgn
fi
grep -q "result:" "$work/emulator.out"
