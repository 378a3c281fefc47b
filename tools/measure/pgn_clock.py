#!/usr/bin/env python3
"""How each engine of a fastchess match spent its clock (dev tool; needs only python3).

Reads the PGN that fastchess writes (`-pgnout`: every timed move carries a comment
`{score/depth seconds, ...}`, book moves a `{book}` comment) and prints, per engine, the mean
seconds a move in bands of game move numbers, and the median clock left at the end of the
games of at least 70 moves (base + increment x timed moves - time used). Games starting from a
FEN with black to move are counted from black's first comment.

Usage: pgn_clock.py MATCH.pgn BASE_SECONDS INCREMENT_SECONDS
"""
import collections
import re
import statistics
import sys

BANDS = [(9, 20), (21, 40), (41, 60), (61, None)]
TIMED = re.compile(r"\s*([+-]?[\d.]+|[+-]?M\d+)/(\d+)\s+([\d.]+)s")
LONG_GAME_PLIES = 139  # the 70th move of white


def read_games(text):
    for game in re.split(r"\n(?=\[Event )", text):
        header = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if "White" not in header:
            continue
        body = re.search(r"\n\n(.*)", game, re.S)
        yield header, re.findall(r"\{([^}]*)\}", body.group(1) if body else "")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pgn, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    spent = collections.defaultdict(lambda: [[0.0, 0] for _ in BANDS])
    left = collections.defaultdict(list)
    with open(pgn) as f:
        text = f.read()
    for header, comments in read_games(text):
        names = (header["White"], header["Black"])
        first = 1 if " b " in header.get("FEN", " w ") else 0
        timed, used = [0, 0], [0.0, 0.0]
        for i, comment in enumerate(comments):
            side, move_number = (first + i) % 2, (first + i) // 2 + 1
            m = TIMED.match(comment)
            if not m:
                continue
            seconds = float(m.group(3))
            timed[side] += 1
            used[side] += seconds
            for band, (lo, hi) in enumerate(BANDS):
                if lo <= move_number and (hi is None or move_number <= hi):
                    spent[names[side]][band][0] += seconds
                    spent[names[side]][band][1] += 1
        if first + len(comments) >= LONG_GAME_PLIES:
            for side in (0, 1):
                left[names[side]].append(base + inc * timed[side] - used[side])
    for name, bands in spent.items():
        cells = []
        for (lo, hi), (total, count) in zip(BANDS, bands):
            cells.append(f"{lo}-{hi if hi else ''} {total / max(1, count):.3f}")
        median = statistics.median(left[name]) if left[name] else float("nan")
        print(f"{name}: moves {' '.join(cells)} s | {len(left[name])} games of 70+ moves, "
              f"median left {median:.2f} s")


if __name__ == "__main__":
    main()
