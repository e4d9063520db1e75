"""Scores `pitlane extract` lines on the real development set.

usage: bench-score-real.py truth.json checked.json out.jsonl

A field counts where the capture shows it: truth.json's value when not
null; with the checked corrections, the screen's value as seen by eye.
A screen is right when every field it shows was read right. A field read
wrong that the reader did not mark doubtful would have been saved: those
are counted apart, and so are saved readings that fail the consistency
checks (K/D against kills / deaths, wins against games).
"""
import json, sys, os

truth_path, checked_path, out_path = sys.argv[1:4]
truth = {t["file"]: t for t in json.load(open(truth_path))}
checked = {k: v for k, v in json.load(open(checked_path)).items() if not k.startswith("_")}
lines = [json.loads(l) for l in open(out_path)]
# Output field, truth field, the name the reader uses in doubtful/missing.
FIELDS = [("kills", "kills", "kills"), ("bots_kills", "bots_kills", "bots_kills"), ("deaths", "deaths", "deaths"),
          ("kd_ratio", "kd_ratio", "kd"), ("wins", "wins", "wins"), ("total_games", "total_games", "games"),
          ("level", "level", "level")]


def read_value(line, out, name):
    if name in line.get("missing", []) or line.get("error"):
        return None
    return line.get(out) or None


def score(use_checked):
    per = {f[0]: [0, 0] for f in FIELDS}
    screens_right, silent_wrong, failing = 0, [], []
    wrong = []
    for line in lines:
        base = os.path.basename(line["file"])
        t = dict(truth.get(base, {}))
        if use_checked:
            for f, c in checked.get(base, {}).items():
                t[f] = c["screen"]
        all_right = True
        for out, tf, name in FIELDS:
            want = t.get(tf)
            if want is None:
                continue
            got = read_value(line, out, name)
            per[out][1] += 1
            if got == want:
                per[out][0] += 1
                continue
            all_right = False
            doubtful = name in (line.get("doubtful") or {})
            wrong.append(f"  {base}: {out} read {got!r}, shown {want!r}{' (marked doubtful)' if doubtful else ''}")
            if got is not None and not doubtful:
                silent_wrong.append(f"{base}:{out}")
        screens_right += all_right
        if not line.get("doubtful") and not line.get("error"):
            try:
                k, d, kd = int(line["kills"]), int(line["deaths"]), float(line["kd_ratio"])
                want_kd = k / d if d else k
                if "kd" not in line.get("missing", []) and abs(kd - want_kd) > 0.0101:
                    failing.append(base)
                w = line.get("wins")
                if w and "games" not in line.get("missing", []) and int(w) > int(line["total_games"]):
                    failing.append(base)
            except (KeyError, ValueError):
                pass
    return per, screens_right, silent_wrong, failing, wrong


n = len(lines)
secs = sorted(l["seconds"] for l in lines)
errors = [l for l in lines if l.get("error")]
print(f"== real development set: {n} captures ({len(errors)} not read) ==")
for label, use in (("as truth.json has it", False), ("as checked by eye (scripts/real-screens-checked.json)", True)):
    per, screens_right, silent, failing, wrong = score(use)
    right = sum(v[0] for v in per.values())
    shown = sum(v[1] for v in per.values())
    print(f"\n-- {label}")
    for line in wrong:
        print(line)
    for f, (r, s) in per.items():
        if s:
            print(f"{f:12s} {r:4d}/{s:<4d} {100 * r / s:5.1f}%")
        else:
            print(f"{f:12s}    not shown on any capture")
    pf = 100 * right / max(1, shown)
    ps = 100 * screens_right / max(1, n)
    print(f"shown numeric fields right: {right}/{shown} = {pf:.1f}% (goal >= 97%: {'met' if pf >= 97 else 'MISSED'})")
    print(f"screens with every shown number right: {screens_right}/{n} = {ps:.1f}% (goal >= 90%: {'met' if ps >= 90 else 'MISSED'})")
    print(f"wrong and not marked doubtful (would be saved): {len(silent)} {' '.join(silent)}")
    print(f"saved readings failing the consistency checks: {len(failing)} (goal 0) {' '.join(failing)}")
if secs:
    print(f"\nseconds per screen on one core: mean {sum(secs) / n:.2f}, p50 {secs[n // 2]:.2f}, max {secs[-1]:.2f} (goal <= 1.5: {'met' if secs[n // 2] <= 1.5 and sum(secs) / n <= 1.5 else 'MISSED'})")
doubt = sum(1 for l in lines if l.get("doubtful"))
print(f"captures with a field for the player to confirm: {doubt}/{n}")
