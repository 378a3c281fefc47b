#!/usr/bin/env bash
# The Dockerfile's build stage: install the build dependencies (deploy/install-deps.sh, as CI
# does, less the test suites' packages: --build-only), build `outpost` with the release preset
# (tests off, a portable -march), and install it under a staging prefix the runtime stage copies
# from. CI runs it with --dry-run and checks the
# commands it prints, and runs the printed `cmake --preset` configure line for real into a
# scratch binary dir (tests/deploy/docker_check.sh scripts).
#
# usage: deploy/docker/build.sh [--dry-run] [--prefix DIR] [--jobs N]
#   OUTPOST_MARCH (environment) overrides the CPU level, default x86-64-v2.
set -euo pipefail

dry_run=0
prefix=/opt/outpost
jobs=$(nproc 2>/dev/null || echo 2)
march=${OUTPOST_MARCH:-x86-64-v2}
preset=release  # the preset `make test` builds and tests

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --prefix) prefix=$2; shift ;;
        --jobs) jobs=$2; shift ;;
        *) echo "build.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
if [[ "$march" == native ]]; then
    echo "build.sh: OUTPOST_MARCH=native would tie the image to the build machine's CPU" >&2
    exit 2
fi

cd "$(dirname "$0")/../.."

# Prints the command (shell-quoted, one line) and runs it unless --dry-run.
run() {
    local quoted
    quoted=$(printf '%q ' "$@")
    echo "+ ${quoted% }"
    if [[ $dry_run -eq 0 ]]; then "$@"; fi
}

run bash deploy/install-deps.sh --build-only
run cmake --preset "$preset" -DOUTPOST_BUILD_TESTS=OFF "-DOUTPOST_MARCH=$march"
run cmake --build --preset "$preset" --target outpost -j "$jobs"
run cmake --install "build/$preset" --prefix "$prefix" --strip
run "$prefix/bin/outpost" --version
