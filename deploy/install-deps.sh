#!/usr/bin/env bash
# Installs the Debian 12 packages Outpost needs to build and test. Idempotent: apt-get runs only
# when a package is missing. Used by `make test`, CI and the Dockerfile's build stage.
#
# usage: deploy/install-deps.sh [--build-only]
#   --build-only: only what building `outpost` needs, not the test suites' libraries and oracles
#   (the Dockerfile's build stage, which builds with tests off: no chromium and its dependencies
#   to download and unpack in every image build).
set -euo pipefail

build_only=0
[[ ${1:-} == --build-only ]] && build_only=1

packages=(
    build-essential cmake ninja-build pkg-config git ca-certificates
    libcurl4-openssl-dev libssl-dev nlohmann-json3-dev libboost-dev libyaml-cpp-dev
    libspdlog-dev libfmt-dev libcli11-dev prometheus-cpp-dev
    # The Gaviota and Syzygy (Fathom) endgame tablebase probing libraries.
    libgaviotatb-dev libfathom-dev
)
if [[ $build_only -eq 0 ]]; then
    packages+=(
        libgtest-dev libgmock-dev libbenchmark-dev
        # Debian's 3-piece Gaviota tables (/usr/share/gaviotatb), which
        # tests/engine/tablebase_test.cpp probes.
        gaviotatb
        # Fathom's command-line prober (/usr/games/fathom), the oracle of
        # tests/engine/syzygy_oracle_test.cpp.
        fathom
        # The variants' move lists are checked against Debian's Fairy-Stockfish
        # (tests/engine/fairy_stockfish_test.cpp runs /usr/games/fairy-stockfish).
        fairy-stockfish
        # The status page in a real browser (tests/e2e/browser_test.cpp runs headless chromium;
        # as root it needs --no-sandbox, which the test passes).
        chromium
    )
fi
if [[ "${OUTPOST_FUZZ_DEPS:-0}" == 1 ]]; then
    packages+=(clang libclang-rt-14-dev)
fi
# The format check (`make format-check`, run first by .ci/run) and `make format`.
if [[ "${OUTPOST_FORMAT_DEPS:-0}" == 1 ]]; then
    packages+=(clang-format)
fi
# CI's image step (tests/deploy/image_build_run.sh): build and run the Dockerfile without Docker;
# python3 reads buildah's storage for the layer sizes.
if [[ "${OUTPOST_IMAGE_DEPS:-0}" == 1 ]]; then
    packages+=(buildah debootstrap python3)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
