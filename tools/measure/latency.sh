#!/usr/bin/env bash
# Move reaction latency (figures and how to read them: docs/OPERATIONS.md): for every bot
# move, the time the emulator measured from sending the gameState that put the bot on move
# to receiving the move POST (report: think_ms), minus the
# search time the bot logged for that move (`time Xms`). Searches are movetime-fixed:
# correspondence games, where TimeBudget gives the engine exactly correspondence.move_time_s.
#   tools/measure/latency.sh [MIN_MOVES] [GAMES_AT_ONCE] [HASH_MB] [OUTDIR]
# Runs rounds of GAMES_AT_ONCE games (bot white and black alternately, against the emulator's
# depth-1 engine, which resigns at ply 160) until MIN_MOVES bot moves are recorded, then
# prints the figures with latency.py (python3: a dev dependency of this tool only).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
MIN_MOVES=${1:-500}; AT_ONCE=${2:-2}; HASH=${3:-64}
OUT=${4:-$(mktemp -d /tmp/outpost-latency.XXXXXX)}
need_binaries
mkdir -p "$OUT"
trap 'stop_all' EXIT
echo "output in $OUT; load at start: $(loadavg)"

moves=0; round=0
while [[ $moves -lt $MIN_MOVES ]]; do
    round=$((round + 1))
    R=$OUT/round$round; mkdir -p "$R"
    {
        echo "name: latency-$round"
        echo "seed: $round"
        echo "first_move_timeout_ms: 0"
        echo "exit_when: all_games_finished"
        echo "games:"
        for i in $(seq 1 "$AT_ONCE"); do
            color=white; [[ $(( (i + round) % 2 )) -eq 0 ]] && color=black
            printf '  - {id: %s, at_ms: 200, bot_color: %s, days: 14, opponent: {kind: engine, depth: 1, think_ms: 5, resign_at_ply: 160}}\n' \
                "$(printf 'lat%02d%03d' "$round" "$i")" "$color"
        done
    } >"$R/scenario.yml"
    start_emulator "$R/scenario.yml" "$R/report.json" "$R/emulator.out"
    # Correspondence games play at most max_concurrent_searches at once (and take no
    # concurrency slot); the warm engines (concurrency) are what their searches borrow.
    write_config "$R/config.yml" "$EMU_PORT" "$HASH" "$AT_ONCE" 1 "127.0.0.1:0" \
        "max_concurrent_searches: $AT_ONCE"
    start_daemon "$R/config.yml" "$R/outpost.log"
    # The emulator exits (writing its report) once every game is over.
    while kill -0 "$EMU_PID" 2>/dev/null; do sleep 1; done
    wait "$EMU_PID" 2>/dev/null || true; EMU_PID=
    # The daemon's own view (reaction-latency histogram), when curl is there.
    port=$(sed -n 's|.*health endpoint on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$R/outpost.log" | head -1)
    if [[ -n $port ]] && command -v curl >/dev/null; then
        curl -s "http://127.0.0.1:$port/metrics" >"$R/metrics.txt" || true
    fi
    stop_all
    n=$(grep -c ' ply [0-9]* move ' "$R/outpost.log" || true)
    moves=$((moves + n))
    echo "round $round: $n bot moves (total $moves), load $(loadavg)"
done
python3 "$(dirname "${BASH_SOURCE[0]}")/latency.py" "$OUT"
