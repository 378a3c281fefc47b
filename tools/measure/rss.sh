#!/usr/bin/env bash
# Memory and threads of the daemon with N correspondence games open.
# Figures and how to read them: docs/OPERATIONS.md.
#   tools/measure/rss.sh [GAMES] [HASH_MB] [CONCURRENCY] [SETTLE_S]
# GAMES correspondence games start at once (gameStart without a challenge); the bot is white,
# the opponent makes one move and then never moves again. After the bot's second move in every
# game, the script waits SETTLE_S more seconds (longer than DISCONNECT_S, so every game is
# parked) and reads the daemon's memory and threads; it also samples the threads every 0.1 s
# while the games are played (threads_peak). GAMES=0 is the idle daemon: event stream open, no
# game. Prints one line:
#   games=N hash_mb=H concurrency=C searches=S VmRSS_kB=.. VmHWM_kB=.. threads=.. threads_peak=..
# Environment: MAX_SEARCHES (correspondence.max_concurrent_searches, default 1), MOVE_TIME_MS
# (correspondence.move_time_ms, default 1000), DISCONNECT_S (correspondence.disconnect_time_s,
# default 15), CHECKIN_S (correspondence.checkin_period_s, default 5), TIMEOUT_S (how long the
# games may take, default 600), EVALUATION (engine.evaluation, default nnue).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GAMES=${1:-0}; HASH=${2:-64}; CONC=${3:-1}; SETTLE=${4:-3}
SEARCHES=${MAX_SEARCHES:-1}; MOVE_MS=${MOVE_TIME_MS:-1000}; DISCONNECT=${DISCONNECT_S:-15}
CHECKIN=${CHECKIN_S:-5}
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
write_config "$DIR/config.yml" "$EMU_PORT" "$HASH" "$CONC" 60 "127.0.0.1:0" \
    "move_time_ms: $MOVE_MS, max_concurrent_searches: $SEARCHES, disconnect_time_s: $DISCONNECT, checkin_period_s: $CHECKIN"
start_daemon "$DIR/config.yml" "$DIR/outpost.log"

# Ready: the event stream is open (GAMES=0) or every game has made its second move (ply 3).
PEAK=0
for _ in $(seq 1 $((${TIMEOUT_S:-600} * 10))); do
    kill -0 "$BOT_PID" 2>/dev/null || { echo "daemon exited:" >&2; tail "$DIR/outpost.log" >&2; exit 1; }
    t=$(proc_field "$BOT_PID" Threads); [[ ${t:-0} -gt $PEAK ]] && PEAK=$t
    if [[ $GAMES -eq 0 ]]; then
        grep -q "waiting for challenges" "$DIR/outpost.log" && break
    else
        [[ $(grep -c " ply 3 move " "$DIR/outpost.log" || true) -ge $GAMES ]] && break
    fi
    sleep 0.1
done
for _ in $(seq 1 $((SETTLE * 10))); do
    t=$(proc_field "$BOT_PID" Threads); [[ ${t:-0} -gt $PEAK ]] && PEAK=$t
    sleep 0.1
done
echo "games=$GAMES hash_mb=$HASH concurrency=$CONC searches=$SEARCHES" \
     "VmRSS_kB=$(proc_field "$BOT_PID" VmRSS) VmHWM_kB=$(proc_field "$BOT_PID" VmHWM)" \
     "threads=$(proc_field "$BOT_PID" Threads) threads_peak=$PEAK" \
     "moves_ply3=$(grep -c ' ply 3 move ' "$DIR/outpost.log" || true) load=\"$(loadavg)\""
stop_all
[[ -n ${KEEP:-} ]] && echo "files in $DIR" >&2 || rm -rf "$DIR"
