#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`, clang), replays each one's seed corpus
# (tests/fuzz/corpus/<target>, every file once), then fuzzes it for a bounded time.
# Usage: tests/fuzz/run.sh [target...]   (default: all; names as in tests/fuzz/corpus/)
# FUZZ_SECONDS (default 60) per target; FUZZ_WORK (default tests/fuzz/corpus-work, ignored by
# git) holds each target's grown corpus, log and crash artifacts. Exits non-zero when any
# target reports a crash, leak, timeout, out-of-memory or sanitizer error.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-60}
work=${FUZZ_WORK:-tests/fuzz/corpus-work}
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(ndjson_events fen uci_moves uci_commands config san polyglot_book nnue_file syzygy_file
        online_explorer online_cloud_eval online_tablebase online_chessdb)
fi

OUTPOST_FUZZ_DEPS=1 bash deploy/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
bins=build/fuzz/tests/fuzz
for t in "${targets[@]}"; do
    [[ -x $bins/fuzz_$t ]] || { echo "fuzz: no target '$t' ($bins/fuzz_$t)" >&2; exit 2; }
done

# One target: its grown corpus, log and artifacts under $work/$t; its exit status in $work/$t/rc.
fuzz_one() {
    local t=$1 bin=$bins/fuzz_$1 rc=0
    mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
    # First every seed of the repo's corpus once, named one by one (libFuzzer runs files given
    # by name and exits): the seeds are the cases someone wrote down, so they run whatever
    # FUZZ_SECONDS is, and a seed that fails is named in the log. xargs gives the target an
    # empty stdin, and -r runs nothing (rather than fuzz without end) should the folder be empty.
    find "tests/fuzz/corpus/$t" -type f -print0 | sort -z |
        xargs -0 -r "$bin" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/$t/artifacts/" \
            >"$work/$t/seeds.log" 2>&1 || rc=$?
    if [[ $rc -ne 0 ]]; then
        cp "$work/$t/seeds.log" "$work/$t/log"
        echo "$rc" >"$work/$t/rc"
        return
    fi
    # The first folder receives new inputs; the seed corpus in the repo is only read.
    # stdin is empty so no input can make a target wait on it (config token_file: /dev/stdin).
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" "tests/fuzz/corpus/$t" \
        </dev/null >"$work/$t/log" 2>&1 || rc=$?
    echo "$rc" >"$work/$t/rc"
}

# Each target is one process on one core, so FUZZ_JOBS (default: the cores) run at once: CI's
# 13 targets x 10 s take about a minute on 2 cores instead of two.
parallel=${FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
    echo "fuzz: $t for ${seconds}s (log: $work/$t/log)"
    rm -f "$work/$t/rc"
    fuzz_one "$t" &
done
wait

failed=()
for t in "${targets[@]}"; do
    if [[ $(cat "$work/$t/rc" 2>/dev/null) == 0 ]]; then
        echo "fuzz: $t: $(grep -c '^Executed ' "$work/$t/seeds.log") seeds replayed;" \
            "$(grep -E '^stat::number_of_executed_units|^Done [0-9]+ runs' "$work/$t/log" | tail -1)"
    else
        echo "fuzz: $t FAILED; artifacts in $work/$t/artifacts/; log tail:" >&2
        tail -n 40 "$work/$t/log" >&2
        failed+=("$t")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: failed targets: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran ${seconds}s each without findings"
