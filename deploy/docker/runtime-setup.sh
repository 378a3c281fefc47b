#!/usr/bin/env bash
# The Dockerfile's runtime stage setup: install exactly the packages in deploy/runtime-packages.txt,
# create the non-root user the image runs as (fixed uid/gid, so mounted folders can be chowned
# to it) and the folders it uses. CI runs it with --dry-run (tests/deploy/docker_check.sh).
#
# usage: deploy/docker/runtime-setup.sh [--dry-run] [--packages FILE]
set -euo pipefail

readonly OUTPOST_UID=10001
readonly OUTPOST_GID=10001

dry_run=0
packages_file="$(cd "$(dirname "$0")/.." && pwd)/runtime-packages.txt"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --packages) packages_file=$2; shift ;;
        *) echo "runtime-setup.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done

# The list: one package per line, '#' starts a comment.
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$packages_file")
if [[ ${#packages[@]} -eq 0 ]]; then
    echo "runtime-setup.sh: no packages in $packages_file" >&2
    exit 1
fi

run() {
    local quoted
    quoted=$(printf '%q ' "$@")
    echo "+ ${quoted% }"
    if [[ $dry_run -eq 0 ]]; then "$@"; fi
}

export DEBIAN_FRONTEND=noninteractive
run apt-get update
run apt-get install -y --no-install-recommends "${packages[@]}"
# In this same layer, what apt and dpkg leave besides the packages: the downloaded .debs and
# apt's binary caches (apt-get clean: about 80 MB on a base without the official image's
# docker-clean hook), the package lists, this install's logs and debconf's and dpkg's backups.
run apt-get clean
run sh -c 'rm -rf /var/lib/apt/lists/* /var/log/apt/* /var/log/dpkg.log /var/cache/debconf/*-old /var/lib/dpkg/*-old'
run groupadd --system --gid "$OUTPOST_GID" outpost
run useradd --system --uid "$OUTPOST_UID" --gid "$OUTPOST_GID" --home-dir /data \
    --no-create-home --shell /usr/sbin/nologin outpost
# /config is mounted read-only; /data/pgn holds PGN records (a volume).
run install -d -m 0755 /config
run install -d -m 0750 -o "$OUTPOST_UID" -g "$OUTPOST_GID" /data /data/pgn
