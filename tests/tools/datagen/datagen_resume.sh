#!/bin/sh
# outpost-datagen killed (kill -9, then SIGTERM) and started again with the same command writes
# the games a run in one go writes. Usage: datagen_resume.sh OUTPOST_DATAGEN WORK_DIR
set -eu
datagen=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
args="--seed 21 --nodes 1000 --games 10 --hash 1 --progress 1"

# The games of one uninterrupted run, sorted by game (stable: a game's records keep their order).
games() {
    "$datagen" --dump "$1" 2>/dev/null | sort -s -t';' -k4,4n
}
"$datagen" --out "$work/whole.bin" $args --threads 2 2>"$work/whole.log"
games "$work/whole.bin" >"$work/whole.txt"
test -s "$work/whole.txt"
# Its last progress line: the totals and both rates.
grep -Eq "done: 10 games, [0-9]+ positions .* [0-9]+ positions/s, [0-9]+ positions/core-hour" \
    "$work/whole.log" || { cat "$work/whole.log"; exit 1; }

# Killed once records are in the file (a game may be cut off mid-write), then stopped cleanly.
stop_after_records() {  # SIGNAL NAME BYTES: start a run, send SIGNAL once the file is larger
    "$datagen" --out "$work/resumed.bin" $args --threads 2 2>>"$work/resumed.log" &
    pid=$!
    i=0
    while [ "$i" -lt 3000 ] && kill -0 "$pid" 2>/dev/null; do
        size=$(stat -c %s "$work/resumed.bin" 2>/dev/null || echo 0)
        [ "$size" -gt "$3" ] && break
        i=$((i + 1))
        sleep 0.01
    done
    kill "-$1" "$pid" 2>/dev/null || true
    wait "$pid" || true
    echo "after SIG$1 ($2): $(stat -c %s "$work/resumed.bin") bytes" >>"$work/resumed.log"
}
stop_after_records KILL first 96
stop_after_records TERM second $(($(stat -c %s "$work/resumed.bin") + 32))
"$datagen" --out "$work/resumed.bin" $args --threads 1 2>>"$work/resumed.log"
games "$work/resumed.bin" >"$work/resumed.txt"

if cmp -s "$work/whole.txt" "$work/resumed.txt"; then
    echo "resumed run: the same $(wc -l <"$work/whole.txt") positions of 10 games"
else
    cat "$work/resumed.log"
    diff "$work/whole.txt" "$work/resumed.txt" | head -20
    exit 1
fi
