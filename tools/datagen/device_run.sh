#!/bin/sh
# Self-play data on a lent many-core machine that has no compiler or network: build a
# self-contained outpost-datagen here, run it there on every core for a fixed time, and bring the
# data back in pieces small enough for the trip. Run from the repository root. Usage: docs/NNUE.md.
#
#   tools/datagen/device_run.sh build
#       here: an x86-64-v3 build of the generator with every shared library it loads (and the
#       dynamic loader) beside it, in build/device/bundle (carry that folder)
#   tools/datagen/device_run.sh run SEED SECONDS [NODES]
#       there: plays run gSEED with the current net at NODES (10000) a move on every core for
#       SECONDS, stops it cleanly (SIGTERM: complete games stay, the games in play are dropped),
#       and leaves under $OUT: gSEED.log, gSEED.sha256 (of the file) and the file gzipped in
#       15 MiB pieces, gSEED.bin.gz.part00, part01, ...: `cat` them in order and gunzip.
set -eu

bundle=build/device/bundle
net=engine/nets/outpost-nn10.nnue  # the embedded net (engine/CMakeLists.txt)

# The bundled generator, started by the bundled loader on the bundled libraries: it runs on any
# x86-64-v3 Linux, whatever its own libraries are. (A -static link, as g7-g9 were built, is no
# longer possible: the engine links Debian's libfathom, which ships as a shared library only.)
datagen() {
    "$bundle/lib/ld.so" --library-path "$bundle/lib" "$bundle/outpost-datagen" "$@"
}

case "${1:-}" in
build)
    # The flags g7-g9 were played with; the tests are not built (only the generator travels).
    cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DOUTPOST_BUILD_TESTS=OFF \
        -DOUTPOST_MARCH=x86-64-v3
    cmake --build build/device --target outpost-datagen -j "${JOBS:-2}"
    rm -rf "$bundle"
    mkdir -p "$bundle/lib"
    bin=build/device/tools/datagen/outpost-datagen
    cp "$bin" "$bundle/outpost-datagen"
    # ldd's lines: "libfathom.so.1 => /lib/x86_64-linux-gnu/libfathom.so.1 (0x...)", and the
    # loader's "/lib64/ld-linux-x86-64.so.2 (0x...)".
    ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r lib; do
        cp -L "$lib" "$bundle/lib/"
    done
    loader=$(ldd "$bin" | awk '$1 ~ /^\// { print $1 }' | head -n 1)
    [ -n "$loader" ] || { echo "no dynamic loader in ldd's answer for $bin" >&2; exit 2; }
    cp -L "$loader" "$bundle/lib/ld.so"
    datagen --help >/dev/null 2>&1 || [ $? -eq 2 ] ||
        { echo "the bundled generator does not start" >&2; exit 2; }
    du -sh "$bundle"
    ls -l "$bundle" "$bundle/lib"
    ;;
run)
    seed=${2:?SEED}
    seconds=${3:?SECONDS}
    nodes=${4:-10000}
    out=${OUT:?OUT: the folder whose files come back}
    [ -x "$bundle/outpost-datagen" ] ||
        { echo "no $bundle: run '$0 build' first and carry $bundle" >&2; exit 2; }
    file=/tmp/g$seed.bin
    # Every core (the default --threads); the timeout's SIGTERM is the generator's clean stop.
    status=0
    timeout -s TERM "$seconds" "$bundle/lib/ld.so" --library-path "$bundle/lib" \
        "$bundle/outpost-datagen" --out "$file" --seed "$seed" --nodes "$nodes" \
        --net "$net" --progress 30 >"$out/g$seed.log" 2>&1 || status=$?
    # 124: stopped by the timeout, as planned.
    if [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; then
        cat "$out/g$seed.log" >&2
        exit "$status"
    fi
    datagen --dump "$file" 2>>"$out/g$seed.log" >/dev/null
    sha256sum "$file" | sed "s|/tmp/||" >"$out/g$seed.sha256"
    # Files come back 16 MiB each and 64 MiB together at most: gzip -1 takes records to about
    # 40% (12 bytes a position), so four pieces hold about 5M positions.
    gzip -1 -c "$file" | split -b 15M -d -a 2 - "$out/g$seed.bin.gz.part"
    ls -l "$out"
    tail -n 3 "$out/g$seed.log"
    ;;
*)
    echo "usage: $0 build | run SEED SECONDS [NODES]" >&2
    exit 2
    ;;
esac
