#!/bin/sh
# Self-play data on a lent many-core machine that has no compiler or network: build a static
# outpost-datagen here, run it there on every core for a fixed time, and bring the data back in
# pieces small enough for the trip. Run from the repository root. Usage: docs/NNUE.md.
#
#   engine/tools/datagen/device_run.sh build
#       here: a static x86-64-v3 binary at build/static/engine/tools/datagen/outpost-datagen
#   engine/tools/datagen/device_run.sh run SEED SECONDS [NODES]
#       there: plays run gSEED with the current net at NODES (10000) a move on every core for
#       SECONDS, stops it cleanly (SIGTERM: complete games stay, the games in play are dropped),
#       and leaves under $OUT: gSEED.log, gSEED.sha256 (of the file) and the file gzipped in
#       15 MiB pieces, gSEED.bin.gz.part00, part01, ...: `cat` them in order and gunzip.
set -eu

bin=build/static/engine/tools/datagen/outpost-datagen
net=engine/nets/outpost-nn10.nnue  # the embedded net (engine/CMakeLists.txt)

case "${1:-}" in
build)
    # The flags g7-g9 were played with; the tests are not built (only the generator travels).
    # The engine links libgaviotatb: its static archive (Debian's libgaviotatb-dev ships one)
    # and the zlib it calls.
    gtb=$(find /usr/lib /usr/local/lib -name libgaviotatb.a 2>/dev/null | head -n 1)
    zlib=$(find /usr/lib /usr/local/lib -name libz.a 2>/dev/null | head -n 1)
    [ -n "$gtb" ] && [ -n "$zlib" ] ||
        { echo "no libgaviotatb.a or libz.a (Debian: libgaviotatb-dev, zlib1g-dev)" >&2; exit 2; }
    gtb="$gtb;$zlib"
    cmake -S . -B build/static -G Ninja -DCMAKE_BUILD_TYPE=Release -DOUTPOST_BUILD_TESTS=OFF \
        -DOUTPOST_MARCH=x86-64-v3 -DCMAKE_EXE_LINKER_FLAGS=-static -DGAVIOTATB_LIBRARY="$gtb"
    cmake --build build/static --target outpost-datagen -j "${JOBS:-2}"
    ls -l "$bin"
    ;;
run)
    seed=${2:?SEED}
    seconds=${3:?SECONDS}
    nodes=${4:-10000}
    out=${OUT:?OUT: the folder whose files come back}
    [ -x "$bin" ] || { echo "no $bin: run '$0 build' first and carry build/static" >&2; exit 2; }
    file=/tmp/g$seed.bin
    # Every core (the default --threads); the timeout's SIGTERM is the generator's clean stop.
    status=0
    timeout -s TERM "$seconds" "$bin" --out "$file" --seed "$seed" --nodes "$nodes" \
        --net "$net" --progress 30 >"$out/g$seed.log" 2>&1 || status=$?
    # 124: stopped by the timeout, as planned.
    if [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; then
        cat "$out/g$seed.log" >&2
        exit "$status"
    fi
    "$bin" --dump "$file" 2>>"$out/g$seed.log" >/dev/null
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
