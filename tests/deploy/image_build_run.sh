#!/usr/bin/env bash
# Builds the real container image with no Docker daemon and runs it:
#   1. base: `debootstrap --variant=minbase bookworm`, stripped as the official slim image is (no
#      apt lists or cached .debs, no docs, man pages or locales, dpkg told to keep them out) but
#      without its docker-clean apt hook, so the image must clean up after apt itself, as on any
#      base; committed as debian:bookworm-slim with `buildah from scratch` / `copy` / `commit`.
#      Cached: reused from buildah's storage, else from $cache/bookworm-slim-<recipe>.tar (a tar
#      of the stripped root), so only the first run on a machine pays for debootstrap.
#   2. `buildah bud --isolation chroot` of our Dockerfile (the build stage's apt-get reaches
#      Debian's archive; it compiles only the `outpost` target, tests off).
#   3. runs the image from a read-only bind of its mounted root, chrooted as uid/gid 10001:
#      `outpost --version`, `outpost check-config` on the example, and one game against the
#      emulator (the host build's outpost-emulator on 127.0.0.1) with `outpost healthcheck`
#      passing while the game runs; the PGN lands in a writable /data/pgn (a "volume").
#   4. reports the image size and what our layers add to the base (also in $out/image-size.txt),
#      and fails when they add more than the files of the runtime packages (those the image has
#      and the base has not), the binary and the example config, plus $extra_limit bytes (dpkg's
#      records of the packages, the user, tar headers), or when apt left a file behind.
#
# Needs root (debootstrap, mounts, chroot), buildah, debootstrap and python3 (apt-get install
# buildah debootstrap python3), and network access to Debian's archive (debootstrap's default
# mirror, which the base keeps as its apt source) for steps 1-2 only.
# Everything the test itself talks to is on 127.0.0.1.
#
# usage: tests/deploy/image_build_run.sh --emulator PATH/outpost-emulator
#            [--cache DIR (default /var/cache/outpost-image)] [--tag NAME (default outpost:ci)]
#            [--context DIR (default: the repository root, as `docker build .`)] [--keep]
#            [--no-build (run the image already tagged)] [--base-only (step 1 alone, then exit)]
#   --context git:REV builds from `git archive REV` instead (a clean tree, e.g. git:HEAD).
# Exit 77 (skipped) when not root or buildah/debootstrap/python3 are missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${OUTPOST_IMAGE_CACHE:-/var/cache/outpost-image}
tag=outpost:ci
emulator=""
keep=0
build=1
base_only=0
context=$root
while [[ $# -gt 0 ]]; do
    case "$1" in
        --emulator) emulator=$(realpath -m "$2"); shift ;;
        --cache) cache=$2; shift ;;
        --tag) tag=$2; shift ;;
        --context) context=$2; shift ;;
        --keep) keep=1 ;;
        --no-build) build=0 ;;
        --base-only) base_only=1 ;;
        *) echo "image_build_run: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $emulator || $base_only -eq 1 ]] || { echo "image_build_run: --emulator PATH is required" >&2; exit 2; }
if [[ $(id -u) -ne 0 ]] || ! command -v buildah >/dev/null || ! command -v debootstrap >/dev/null ||
    ! command -v python3 >/dev/null; then
    echo "SKIP: needs root, buildah, debootstrap and python3 (apt-get install buildah debootstrap python3)"
    exit 77
fi

readonly base_image=localhost/debian:bookworm-slim
# The base's recipe (strip_rootfs); a cached base of another recipe is made again. 2: no docker-clean.
readonly base_recipe=3
# What our layers may add beyond the runtime packages' files, the binary and the example config:
# 2.1 MB measured (debconf's templates.dat rewritten, 0.8 MB; dpkg's status and records of the 22
# new packages, 0.6 MB; the CA bundle ca-certificates generates, 0.2 MB; tar headers). Without
# apt's cleanup it was 82.8 MB.
readonly extra_limit=3000000
export BUILDAH_ISOLATION=chroot
work=$(mktemp -d /tmp/outpost-image.XXXXXX)
out=${OUTPOST_IMAGE_REPORT_DIR:-$work}
step_start=$SECONDS
step() {
    echo "== [$((SECONDS - step_start)) s] $*"
}

ctr=""
base_ctr=""
emu_pid=""
bot_pid=""
cleanup() {
    if [[ -n $bot_pid ]]; then kill "$bot_pid" 2>/dev/null || true; fi
    if [[ -n $emu_pid ]]; then kill "$emu_pid" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    local c
    for c in "$ctr" "$base_ctr"; do
        [[ -n $c ]] && { buildah umount "$c" >/dev/null 2>&1 || true; buildah rm "$c" >/dev/null 2>&1 || true; }
    done
    if [[ $keep -eq 0 ]]; then
        rm -rf "$work"
        # The build stage's image (~740 MB) and untagged layers; the base and $tag stay.
        buildah rmi --prune >/dev/null 2>&1 || true
    else
        echo "kept $work"
    fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
# 1. The base image.

# Strips a minbase root as debuerreotype does for the official slim image, and keeps it so.
strip_rootfs() {
    local r=$1
    rm -rf "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/*.bin "$r"/var/cache/apt/archives/*.deb \
        "$r"/var/cache/apt/archives/partial/* "$r"/var/cache/debconf/*-old "$r"/var/lib/dpkg/*-old \
        "$r"/var/log/*.log "$r"/var/log/apt/* "$r"/var/log/bootstrap.log "$r"/debootstrap
    find "$r"/usr/share/doc -mindepth 1 -not -name copyright -not -type d -delete
    find "$r"/usr/share/doc -mindepth 1 -type d -empty -delete
    rm -rf "$r"/usr/share/man/* "$r"/usr/share/groff/* "$r"/usr/share/info/* \
        "$r"/usr/share/lintian/* "$r"/usr/share/linda/*
    find "$r"/usr/share/locale -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
    mkdir -p "$r"/etc/dpkg/dpkg.cfg.d "$r"/etc/apt/apt.conf.d "$r"/etc/apt/sources.list.d
    cat >"$r"/etc/dpkg/dpkg.cfg.d/docker <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
    # Not the official image's docker-clean hook (apt deleting its caches after each run): the
    # Dockerfile must not depend on it.
    echo 'Acquire::Languages "none";' >"$r"/etc/apt/apt.conf.d/docker-no-languages
    echo 'Acquire::GzipIndexes "true";' >"$r"/etc/apt/apt.conf.d/docker-gzip-indexes
    # The apt sources stay those debootstrap wrote (its default mirror, the release): the
    # Dockerfile's apt-get needs no other.
    : >"$r"/etc/resolv.conf
    echo localhost >"$r"/etc/hostname
}

make_base() {
    if buildah inspect --type image "$base_image" >/dev/null 2>&1; then
        if [[ $(buildah inspect --type image --format '{{index .OCIv1.Config.Labels "org.outpost.base-recipe"}}' \
            "$base_image") == "$base_recipe" ]]; then
            step "base: $base_image is in buildah's storage"
            return
        fi
        step "base: $base_image in buildah's storage is of another recipe; making it again"
        buildah rmi -f "$base_image" >/dev/null
    fi
    mkdir -p "$cache"
    local tarball=$cache/bookworm-slim-$base_recipe.tar rootfs=$work/rootfs
    if [[ ! -s $tarball ]]; then
        step "base: debootstrap --variant=minbase bookworm (then stripped; cached in $tarball)"
        debootstrap --variant=minbase bookworm "$rootfs" >"$work/debootstrap.log" 2>&1 ||
            { tail -20 "$work/debootstrap.log" >&2; exit 1; }
        echo "raw minbase: $(du -sh "$rootfs" | cut -f1), /var $(du -sh "$rootfs/var" | cut -f1)"
        strip_rootfs "$rootfs"
        echo "stripped: $(du -sh "$rootfs" | cut -f1), /var $(du -sh "$rootfs/var" | cut -f1)"
        tar -C "$rootfs" --numeric-owner -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    else
        step "base: from the cached root $tarball"
        mkdir -p "$rootfs"
        tar -C "$rootfs" --numeric-owner -xf "$tarball"
    fi
    local base
    base=$(buildah from scratch)
    buildah copy --quiet "$base" "$rootfs" / >/dev/null
    buildah config --cmd bash --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        --label org.opencontainers.image.description="debootstrap minbase bookworm, slimmed (tests/deploy/image_build_run.sh)" \
        --label org.outpost.base-recipe="$base_recipe" "$base"
    buildah commit --quiet --rm "$base" "$base_image" >/dev/null
    rm -rf "$rootfs"
    step "base: committed $base_image"
}

make_base
[[ $base_only -eq 0 ]] || exit 0

# ---------------------------------------------------------------------------------------------
# 2. Our image, from the Dockerfile as docker would build it.

bud_seconds=0
if [[ $build -eq 1 ]]; then
    if [[ $context == git:* ]]; then
        mkdir -p "$work/context"
        git -C "$root" archive "${context#git:}" | tar -x -C "$work/context"
        context=$work/context
    fi
    step "bud: buildah bud --isolation chroot -t $tag (build stage: deps, the outpost target only)"
    bud_start=$SECONDS
    # --layers: one layer per instruction (so their sizes can be told apart) and a reused runtime
    # stage when nothing it copies changed. --pull=never: FROM debian:bookworm-slim is the base above.
    buildah bud --isolation chroot --layers --pull=never --jobs 1 -t "$tag" -f "$context/Dockerfile" \
        --build-arg OUTPOST_MARCH=x86-64-v2 "$context" 2>&1 |
        while IFS= read -r line; do printf '%4d %s\n' $((SECONDS - bud_start)) "$line"; done >"$work/bud.log" ||
        { tail -40 "$work/bud.log" >&2; exit 1; }
    bud_seconds=$((SECONDS - bud_start))
    step "bud: $tag built in $bud_seconds s"
fi

# Image and layer sizes (uncompressed, as `docker images` shows them) from buildah's storage, and
# what our layers add beyond the runtime packages' files (new in the image's dpkg database), the
# binary and the example config; with the files apt left in its cache and lists, if any.
ctr=$(buildah from --pull=never "$tag")
mnt=$(buildah mount "$ctr")
base_ctr=$(buildah from --pull=never "$base_image")
base_mnt=$(buildah mount "$base_ctr")
report_sizes() {
    local store=/var/lib/containers/storage driver
    driver=$(buildah info --format '{{.store.GraphDriverName}}' 2>/dev/null || echo overlay)
    buildah inspect --type image "$tag" >"$work/image.json"
    buildah inspect --type image "$base_image" >"$work/base.json"
    python3 - "$store/$driver-images/images.json" "$store/$driver-layers/layers.json" \
        "$work/image.json" "$work/base.json" "$mnt" "$base_mnt" "$extra_limit" <<'PY'
import json, os, re, sys
images = {i["id"]: i for i in json.load(open(sys.argv[1]))}
layers = {l["id"]: l for l in json.load(open(sys.argv[2]))}
image, base = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
root, base_root, extra_limit = sys.argv[5], sys.argv[6], int(sys.argv[7])
def chain(image_id):
    out, lid = [], images[image_id]["layer"]
    while lid:
        out.append(layers[lid]); lid = layers[lid].get("parent")
    return out[::-1]
ours, theirs = chain(image["FromImageID"]), chain(base["FromImageID"])
steps = [h.get("created_by", "") for h in image["Docker"]["history"] if not h.get("empty_layer")]
mb = lambda n: f"{n / 1e6:.1f} MB" if abs(n) >= 1e5 else f"{n / 1e3:.1f} kB"
total = sum(l.get("diff-size", 0) for l in ours)
base_total = sum(l.get("diff-size", 0) for l in theirs)
print(f"image {mb(total)} = base debian:bookworm-slim {mb(base_total)} + our layers {mb(total - base_total)}")
for i, layer in enumerate(ours[len(theirs):], start=len(theirs)):
    what = steps[i] if i < len(steps) else "?"
    what = re.sub(r"COPY (file|dir):[0-9a-f]+ in ", "COPY to ", what.replace("/bin/sh -c ", "").replace("#(nop) ", ""))
    print(f"  {mb(layer.get('diff-size', 0)):>9}  {what[:110]}")

# The packages the image has and the base has not, and the bytes of their files.
def installed(r):
    names, name = set(), None
    for line in open(f"{r}/var/lib/dpkg/status", encoding="utf-8", errors="replace"):
        if line.startswith("Package: "):
            name = line.split()[1]
        elif line.startswith("Status: ") and line.split()[-1] == "installed":
            names.add(name)
    return names
def file_bytes(path):
    return os.lstat(path).st_size if os.path.isfile(path) and not os.path.islink(path) else 0
new = sorted(installed(root) - installed(base_root))
package_bytes = 0
for pkg in new:
    for listed in (f"{root}/var/lib/dpkg/info/{pkg}{arch}.list" for arch in ("", ":amd64")):
        if os.path.exists(listed):
            package_bytes += sum(file_bytes(root + f.rstrip("\n")) for f in open(listed) if f.strip() != "/.")
binary = file_bytes(f"{root}/usr/local/bin/outpost")
config = file_bytes(f"{root}/usr/local/share/outpost/config.example.yml")
extra = total - base_total - package_bytes - binary - config
print(f"our layers {mb(total - base_total)} = the runtime packages' files {mb(package_bytes)} + outpost "
      f"{mb(binary)} + the example config {mb(config)} + {mb(extra)} else (at most {mb(extra_limit)})")
print(f"  runtime packages ({len(new)}): {' '.join(new)}")
left = [os.path.join(d, f) for top in ("var/cache/apt", "var/lib/apt/lists")
        for d, _, files in os.walk(f"{root}/{top}") for f in files if file_bytes(os.path.join(d, f)) > 0]
problems = []
if extra > extra_limit:
    problems.append(f"our layers add {mb(extra)} beyond the runtime packages, the binary and the config")
if left:
    problems.append(f"apt left {len(left)} file(s) in the image, e.g. {left[0][len(root):]}")
for p in problems:
    print(f"FAIL: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}
sizes_ok=1
report_sizes | tee "$out/image-size.txt" || sizes_ok=0

# ---------------------------------------------------------------------------------------------
# 3. Run it: a read-only bind of the image's root, chrooted as uid 10001, in a private mount
#    namespace (the mounts vanish with it), on this machine's network (127.0.0.1 only).

# The emulator is needed from here on only (the host build may still be linking it).
[[ -x $emulator ]] || { echo "FAIL: no outpost-emulator at $emulator" >&2; exit 1; }
uid=$(awk -F: '$1 == "outpost" {print $3}' "$mnt/etc/passwd")
[[ $uid == 10001 ]] || { echo "FAIL: the image's outpost user is uid '$uid', not 10001" >&2; exit 1; }
mkdir -p "$work/config" "$work/pgn" "$work/ro"
chown 10001:10001 "$work/pgn"

# A free loopback port for health.listen, below the ephemeral range (32768+) that outgoing
# connections take their local ports from.
port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    command -v ss >/dev/null && [[ -n $(ss -Htan "( sport = :$1 or dport = :$1 )") ]]
}
health_port=""
for _ in $(seq 1 50); do
    candidate=$((12000 + RANDOM % 20000))
    if ! port_in_use "$candidate"; then health_port=$candidate; break; fi
done
[[ -n $health_port ]] || { echo "FAIL: no free port" >&2; exit 1; }

"$emulator" --scenario "$root/tests/deploy/image_game.yml" --port 0 --report "$work/report.json" \
    >"$work/emulator.out" 2>"$work/emulator.log" &
emu_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o '127.0.0.1:[0-9]*' "$work/emulator.out" 2>/dev/null | head -1 | cut -d: -f2 || true)
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || { echo "FAIL: the emulator did not start" >&2; cat "$work/emulator.log" >&2; exit 1; }
cat >"$work/config/config.yml" <<CONFIG
url: http://127.0.0.1:$port
health:
  listen: "127.0.0.1:$health_port"
pgn_directory: /data/pgn
CONFIG
chmod 644 "$work/config/config.yml"

# The container: what `docker run --read-only --user 10001:10001 -v config:/config:ro
# -v pgn:/data/pgn -e LICHESS_BOT_TOKEN=...` gives, with the image's WORKDIR, PATH and HOME.
cat >"$work/container.sh" <<'SH'
#!/bin/bash
# Runs inside `unshare --mount`: $1 image root, $2 read-only view, $3 config dir, $4 pgn dir,
# $5 log file; then the command to run in the container. Prints the command's exit status.
set -euo pipefail
mnt=$1 ro=$2 config=$3 pgn=$4 log=$5
shift 5
mount --make-rprivate /
mount --bind "$mnt" "$ro"
mount -o remount,bind,ro "$ro"
mount -t proc proc "$ro/proc"
mount -t tmpfs -o mode=755,nosuid dev "$ro/dev"
for node in null zero random urandom; do
    touch "$ro/dev/$node"
    mount --bind "/dev/$node" "$ro/dev/$node"
done
mount --bind "$config" "$ro/config" && mount -o remount,bind,ro "$ro/config"
mount --bind "$pgn" "$ro/data/pgn"
cmd=$(printf '%q ' "$@")
exec chroot --userspec=10001:10001 "$ro" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/data \
    LICHESS_BOT_TOKEN=lip_image_token /bin/sh -c "cd /data && exec $cmd" >>"$log" 2>&1
SH
in_container() {
    unshare --mount bash "$work/container.sh" "$mnt" "$work/ro" "$work/config" "$work/pgn" "$@"
}

failures=0
check() {
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what" >&2; failures=$((failures + 1)); fi
}
check "our layers add only the runtime packages, the binary and the config; apt left nothing" \
    test "$sizes_ok" -eq 1

step "run: outpost --version, check-config (read-only root, uid 10001)"
check "outpost --version" in_container "$work/version.log" outpost --version
sed 's/^/  /' "$work/version.log"
check "the root is read-only" in_container "$work/rofs.log" sh -c '! touch /usr/local/bin/x 2>/dev/null && ! touch /data/x 2>/dev/null'
# shellcheck disable=SC2016 # expanded inside the container
check "runs as uid 10001" in_container "$work/id.log" sh -c '[ "$(id -u):$(id -g)" = 10001:10001 ]'
check "check-config on the example" in_container "$work/check-example.log" \
    outpost check-config /usr/local/share/outpost/config.example.yml
check "check-config on /config/config.yml" in_container "$work/check-config.log" \
    outpost check-config /config/config.yml

step "run: one game against the emulator on 127.0.0.1:$port, health on :$health_port"
# Started directly (not through the function), so $! is the process that execs into outpost.
unshare --mount bash "$work/container.sh" "$mnt" "$work/ro" "$work/config" "$work/pgn" \
    "$work/outpost.log" outpost run --config /config/config.yml &
bot_pid=$!
healthy=0
for _ in $(seq 1 60); do
    kill -0 "$bot_pid" 2>/dev/null || break
    if in_container "$work/healthcheck.log" outpost healthcheck --quiet --url "http://127.0.0.1:$health_port/healthz"; then
        healthy=1
        break
    fi
    sleep 0.5
done
check "outpost healthcheck (the image's HEALTHCHECK) passes while the bot runs" test $healthy -eq 1
metrics_ok() {
    curl -sf --max-time 5 "http://127.0.0.1:$health_port/metrics" >"$work/metrics.txt" &&
        grep -qx '# TYPE outpost_games_started_total counter' "$work/metrics.txt" &&
        grep -q '^outpost_event_stream_connected 1$' "$work/metrics.txt"
}
check "/metrics: prometheus-cpp's text, event stream connected" metrics_ok
game_done=0
for _ in $(seq 1 480); do
    if ! kill -0 "$emu_pid" 2>/dev/null; then game_done=1; break; fi
    kill -0 "$bot_pid" 2>/dev/null || break
    sleep 0.5
done
wait "$emu_pid" || true
emu_pid=""
check "the game ended (the emulator exited)" test $game_done -eq 1
check "the emulator reports a result" grep -q "result:" "$work/emulator.out"
sed -n '/^game /,$p' "$work/emulator.out" | sed 's/^/  /'
pgn_written() { compgen -G "$work/pgn/*.pgn" >/dev/null; }
check "a PGN was written to the /data/pgn volume" pgn_written
kill -TERM "$bot_pid" 2>/dev/null || true
bot_rc=0
wait "$bot_pid" || bot_rc=$?
bot_pid=""
check "outpost run exits 0 on SIGTERM (rc $bot_rc)" test $bot_rc -eq 0
if grep -qiE "read-only file system|permission denied" "$work/outpost.log"; then
    check "no write refused in the log" false
fi

step "done: $failures problem(s); image build $bud_seconds s"
if [[ $failures -gt 0 ]]; then
    echo "--- outpost.log" >&2
    tail -40 "$work/outpost.log" >&2
    exit 1
fi
