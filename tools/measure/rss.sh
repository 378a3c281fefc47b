#!/usr/bin/env bash
# Memory and threads of the daemon with N correspondence games open and waiting.
# Figures and how to read them: docs/OPERATIONS.md.
#   tools/measure/rss.sh [GAMES] [HASH_MB] [CONCURRENCY] [SETTLE_S]
# GAMES correspondence games start at once (gameStart without a challenge); the bot is white,
# the opponent makes one move and then never moves again, so after the bot's second move
# every game sits idle on the opponent's turn with its session and engine held. GAMES=0 is
# the idle daemon: event stream open, no game. Prints one line:
#   games=N hash_mb=H concurrency=C VmRSS_kB=.. VmHWM_kB=.. threads=.. load=..
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GAMES=${1:-0}; HASH=${2:-64}; CONC=${3:-1}; SETTLE=${4:-3}
need_binaries
DIR=$(mktemp -d /tmp/outpost-rss.XXXXXX)
trap 'stop_all' EXIT

{
    echo "name: rss-$GAMES"
    echo "first_move_timeout_ms: 0"
    echo "keepalive_ms: 7000"
    if [[ $GAMES -eq 0 ]]; then echo "games: []"; else echo "games:"; fi
    for i in $(seq 1 "$GAMES"); do
        printf '  - {id: %s, at_ms: 300, bot_color: white, days: 14, opponent: {kind: staller, stall_from_ply: 2, think_ms: 10}}\n' \
            "$(printf 'rss%05d' "$i")"
    done
} >"$DIR/scenario.yml"

start_emulator "$DIR/scenario.yml" "$DIR/report.json" "$DIR/emulator.out"
write_config "$DIR/config.yml" "$EMU_PORT" "$HASH" "$CONC" 1 "127.0.0.1:0"
start_daemon "$DIR/config.yml" "$DIR/outpost.log"

# Ready: the event stream is open (GAMES=0) or every game has made its second move (ply 3).
for _ in $(seq 1 1200); do
    kill -0 "$BOT_PID" 2>/dev/null || { echo "daemon exited:" >&2; tail "$DIR/outpost.log" >&2; exit 1; }
    if [[ $GAMES -eq 0 ]]; then
        grep -q "waiting for challenges" "$DIR/outpost.log" && break
    else
        [[ $(grep -c " ply 3 move " "$DIR/outpost.log" || true) -ge $GAMES ]] && break
    fi
    sleep 0.1
done
sleep "$SETTLE"
echo "games=$GAMES hash_mb=$HASH concurrency=$CONC VmRSS_kB=$(proc_field "$BOT_PID" VmRSS)" \
     "VmHWM_kB=$(proc_field "$BOT_PID" VmHWM) threads=$(proc_field "$BOT_PID" Threads)" \
     "moves_ply3=$(grep -c ' ply 3 move ' "$DIR/outpost.log" || true) load=\"$(loadavg)\""
stop_all
[[ -n ${KEEP:-} ]] && echo "files in $DIR" >&2 || rm -rf "$DIR"
