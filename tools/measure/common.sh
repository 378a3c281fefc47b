# Shared helpers for the resource-figure scripts (sourced, not run).
# Runs the real daemon (`outpost run`) against the emulator (`outpost-emulator`) on loopback.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build/figures}
OUTPOST=${OUTPOST:-$BUILD/service/outpost}
EMULATOR=${EMULATOR:-$BUILD/tests/emulator/outpost-emulator}
TOKEN=lip_emulator_token
# NICE=-20 runs both processes at that niceness (root only): a diagnostic that takes CPU
# contention from other jobs on the machine out of the latency figures.
RUN_PREFIX=()
[[ -n ${NICE:-} ]] && RUN_PREFIX=(nice -n "$NICE")

need_binaries() {
    for b in "$OUTPOST" "$EMULATOR"; do
        [[ -x $b ]] || { echo "missing $b: build it first (see docs/OPERATIONS.md)" >&2; exit 1; }
    done
}

# start_emulator SCENARIO REPORT OUTFILE: starts it in the background; sets EMU_PID, EMU_PORT.
start_emulator() {
    "${RUN_PREFIX[@]}" "$EMULATOR" --scenario "$1" --port 0 --report "$2" >"$3" 2>&1 &
    EMU_PID=$!
    for _ in $(seq 1 200); do
        EMU_PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$3" 2>/dev/null | head -1 || true)
        [[ -n $EMU_PORT ]] && return 0
        sleep 0.05
    done
    echo "emulator did not start:" >&2; cat "$3" >&2; exit 1
}

# write_config FILE PORT HASH_MB CONCURRENCY MOVE_TIME_S HEALTH_LISTEN [MORE_CORRESPONDENCE]
# MORE_CORRESPONDENCE: more keys of the correspondence mapping, as YAML flow text
# ("max_concurrent_searches: 2, move_time_ms: 200").
write_config() {
    cat >"$1" <<CFG
url: "http://127.0.0.1:$2"
engine: {hash_mb: $3, threads: 1, evaluation: ${EVALUATION:-nnue}}
challenge: {concurrency: $4}
correspondence: {move_time_s: $5${7:+, $7}}
health: {listen: "$6"}
log: {level: ${LOG_LEVEL:-info}}
shutdown_grace_s: 0
CFG
}

# start_daemon CONFIG LOGFILE: sets BOT_PID.
start_daemon() {
    LICHESS_BOT_TOKEN=$TOKEN "${RUN_PREFIX[@]}" "$OUTPOST" run --config "$1" >"$2" 2>&1 &
    BOT_PID=$!
}

# Stops whatever this script started (by pid), quietly.
stop_all() {
    for p in ${BOT_PID:-} ${EMU_PID:-}; do
        kill -TERM "$p" 2>/dev/null || true
    done
    for p in ${BOT_PID:-} ${EMU_PID:-}; do
        for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    BOT_PID= EMU_PID=
}

# proc_field PID FIELD: a /proc/PID/status value (kB for memory fields).
proc_field() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
