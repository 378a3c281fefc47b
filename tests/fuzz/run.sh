#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`, clang) and runs each for a bounded time.
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
    targets=(ndjson_events fen uci_moves uci_commands config san polyglot_book nnue_file
        online_explorer online_cloud_eval online_tablebase online_chessdb)
fi

OUTPOST_FUZZ_DEPS=1 bash deploy/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in "${targets[@]}"; do
    bin=build/fuzz/tests/fuzz/fuzz_$t
    [[ -x $bin ]] || { echo "fuzz: no target '$t' ($bin)" >&2; exit 2; }
    mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
    echo "fuzz: $t for ${seconds}s (log: $work/$t/log)"
    # The first folder receives new inputs; the seed corpus in the repo is only read.
    # stdin is empty so no input can make a target wait on it (config token_file: /dev/stdin).
    if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" "tests/fuzz/corpus/$t" \
        </dev/null >"$work/$t/log" 2>&1; then
        grep -E '^stat::number_of_executed_units|^Done [0-9]+ runs' "$work/$t/log" | tail -1 || true
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
