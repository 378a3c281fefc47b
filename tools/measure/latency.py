#!/usr/bin/env python3
"""Reaction latency from latency.sh's output folder (dev tool; needs only python3).

For every bot move: server think_ms (emulator report: gameState sent -> move POST received)
minus the bot's logged search time (`game ID ply N move UCI ... time Xms`), matched by game id
and ply (the move's UCI is checked too). Both are whole milliseconds, so each difference is
+-1 ms. Prints percentiles (nearest rank) for all moves and without each game's first bot move
(which also pays for leasing the engine and clearing its hash table at gameFull).
"""
import glob, json, os, re, sys

LINE = re.compile(r"game (\S+) ply (\d+) move (\S+) .* time (\d+)ms clock \S+ \(([^,)]+)")


def pct(sorted_vals, p):
    if not sorted_vals:
        return float("nan")
    k = max(1, -(-len(sorted_vals) * p // 100))  # ceil(n p / 100), at least 1
    return sorted_vals[int(k) - 1]


def summary(name, vals):
    v = sorted(vals)
    if not v:
        print(f"{name}: no samples")
        return
    mean = sum(v) / len(v)
    print(f"{name}: n={len(v)} p50={pct(v, 50)} p90={pct(v, 90)} p99={pct(v, 99)} "
          f"max={v[-1]} min={v[0]} mean={mean:.2f} (ms)")


def daemon_histogram(paths):
    """Sum of the daemon's own outpost_move_reaction_latency_seconds buckets over rounds."""
    buckets, count, total = {}, 0, 0.0
    for p in paths:
        for line in open(p):
            m = re.match(r'outpost_move_reaction_latency_seconds_bucket\{le="([^"]+)"\} (\S+)', line)
            if m:
                buckets[m.group(1)] = buckets.get(m.group(1), 0) + float(m.group(2))
            elif line.startswith("outpost_move_reaction_latency_seconds_count "):
                count += float(line.split()[1])
            elif line.startswith("outpost_move_reaction_latency_seconds_sum "):
                total += float(line.split()[1])
    return buckets, count, total


def main(out):
    bot = {}  # (game, ply) -> (uci, search_ms, mode)
    post_rt = []  # LOG_LEVEL=trace: the move POST's round trip as the bot's HTTP client saw it
    for log in glob.glob(os.path.join(out, "round*", "outpost.log")):
        for line in open(log):
            t = re.search(r"http: POST /api/bot/game/\S+/move/\S+ -> \d+ in (\d+) ms", line)
            if t:
                post_rt.append(int(t.group(1)))
            m = LINE.search(line)
            if m:
                bot[(m.group(1), int(m.group(2)))] = (m.group(3), int(m.group(4)), m.group(5))
    all_d, later_d, search, unmatched, mismatched, modes = [], [], [], 0, 0, {}
    for rep in glob.glob(os.path.join(out, "round*", "report.json")):
        for g in json.load(open(rep))["games"]:
            first = True
            for mv in g["moves"]:
                if mv.get("by") != "bot" or "think_ms" not in mv:
                    continue
                b = bot.get((g["id"], mv["ply"]))
                if b is None:
                    unmatched += 1
                    continue
                if b[0] != mv["uci"] and not (len(b[0]) == 4 and len(mv["uci"]) == 4 and b[0][:2] == mv["uci"][:2]):
                    mismatched += 1
                    continue
                d = mv["think_ms"] - b[1]
                all_d.append(d)
                search.append(b[1])
                modes[b[2]] = modes.get(b[2], 0) + 1
                if not first:
                    later_d.append(d)
                first = False
    print(f"moves matched: {len(all_d)} (unmatched {unmatched}, uci mismatch {mismatched}); "
          f"search modes: {modes}")
    summary("search time (bot log)", search)
    summary("reaction latency, all bot moves", all_d)
    summary("reaction latency, without each game's first move", later_d)
    if post_rt:
        summary("move POST round trip (bot's HTTP client, trace log)", post_rt)
    metrics = glob.glob(os.path.join(out, "round*", "metrics.txt"))
    if metrics:
        buckets, count, total = daemon_histogram(metrics)
        if count:
            cum = ", ".join(f"<={k}s: {int(v)}" for k, v in buckets.items())
            print(f"daemon's own histogram (gameState received -> move posted, minus search): "
                  f"n={int(count)} mean={1000 * total / count:.2f} ms; {cum}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
