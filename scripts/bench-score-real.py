"""Scores `pitlane extract` lines on the real development set.

usage: bench-score-real.py truth.json checked.json heldout.txt out.jsonl [photos.json]
       bench-score-real.py --heldout-rule DIR    (prints the held-out list the rule gives)

With photos.json (`pitlane extract -photos`), the lines are simulated
images of the captures (CAPTURE~how.jpg): each is scored against its
capture's truth, less the figures it hides (a crop without the badge), and
the figures are also given per kind of simulation. A figure an image
covers (the kills under a tooltip: its place is shown, its digits are not)
is counted as shown, and once more as not ("less covered").

A field counts where the capture shows it: truth.json's value when not
null; with the checked corrections, the screen's value as seen by eye.
A screen is right when every field it shows was read right. A field read
wrong that the reader did not mark doubtful would have been saved: those
are counted apart, and so are saved readings that fail the consistency
checks (K/D against kills / deaths, wins against games).

The captures are scored in two sets, never mixed: the tuning set (what the
reader may be fitted to) and the held-out third (heldout.txt, chosen by a
hash of the file name before any tuning), which says how it does on
captures it was not fitted to.
"""
import hashlib, json, os, sys

# Output field, truth field, the name the reader uses in doubtful/missing.
FIELDS = [("kills", "kills", "kills"), ("bots_kills", "bots_kills", "bots_kills"), ("deaths", "deaths", "deaths"),
          ("kd_ratio", "kd_ratio", "kd"), ("wins", "wins", "wins"), ("total_games", "total_games", "games"),
          ("level", "level", "level")]


def heldout_rule(names):
    """The third of names (rounded down) with the smallest SHA-256 of the name."""
    return sorted(sorted(names, key=lambda f: hashlib.sha256(f.encode()).hexdigest())[:len(names) // 3])


def read_value(line, out, name):
    if name in line.get("missing", []) or line.get("error"):
        return None
    return line.get(out) or None


def score(lines, truth, checked, use_checked, count_covered=True):
    per = {f[0]: [0, 0] for f in FIELDS}
    screens_right, silent_wrong, failing, wrong = 0, [], [], []
    for line in lines:
        base = os.path.basename(line["file"])
        capture = line.get("capture", base)
        t = dict(truth.get(capture, {}))
        if use_checked:
            for f, c in checked.get(capture, {}).items():
                t[f] = c["screen"]
        for f in line.get("hidden", []) + ([] if count_covered else line.get("covered", [])):
            t[{"games": "total_games"}.get(f, f)] = None
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
            why = f" (marked doubtful: {line['doubtful'][name]})" if doubtful else ""
            if line.get("error"):
                why = f" (not read: {line['error']})"
            wrong.append(f"  {base}: {out} read {got!r}, shown {want!r}{why}")
            if got is not None and not doubtful:
                silent_wrong.append(f"{base}:{out}")
        screens_right += all_right
        missing = line.get("missing", [])
        if not line.get("doubtful") and not line.get("error") and "kills" not in missing and "deaths" not in missing:
            try:
                k, d, kd = int(line["kills"]), int(line["deaths"]), float(line["kd_ratio"])
                want_kd = k / d if d else k
                if "kd" not in missing and abs(kd - want_kd) > 0.0101:
                    failing.append(base)
                w = line.get("wins")
                if w and "games" not in missing and int(w) > int(line["total_games"]):
                    failing.append(base)
            except (KeyError, ValueError):
                pass
    return per, screens_right, silent_wrong, failing, wrong


def pct(a, b):
    return 100 * a / max(1, b)


def report(label, lines, truth, checked):
    n = len(lines)
    secs = sorted(l["seconds"] for l in lines)
    errors = [l for l in lines if l.get("error")]
    print(f"\n== {label}: {n} captures ({len(errors)} not read) ==")
    rows = []
    ways = [("as truth.json has it", False, True), ("as checked by eye", True, True)]
    if any(l.get("covered") for l in lines):
        ways.append(("checked, less covered", True, False))
    for how, use, covered in ways:
        per, screens_right, silent, failing, wrong = score(lines, truth, checked, use, covered)
        right = sum(v[0] for v in per.values())
        shown = sum(v[1] for v in per.values())
        rows.append((how, right, shown, screens_right, silent, failing))
        if use and covered:
            for w in wrong:
                print(w)
            print("per field (checked): " + ", ".join(
                f"{f} {r}/{s}" if s else f"{f} not shown" for f, (r, s) in per.items()))
    for how, right, shown, screens_right, silent, failing in rows:
        print(f"{how:22s} fields {right}/{shown} = {pct(right, shown):5.1f}%   screens {screens_right}/{n} = "
              f"{pct(screens_right, n):5.1f}%   wrong, not doubtful: {len(silent)} {' '.join(silent)}   "
              f"saved failing checks: {len(failing)} {' '.join(failing)}")
    if secs:
        p95 = secs[min(n - 1, (95 * n + 99) // 100 - 1)]
        print(f"seconds per screen on one core: mean {sum(secs) / n:.2f}, p50 {secs[n // 2]:.2f}, "
              f"p95 {p95:.2f}, max {secs[-1]:.2f} (goal p95 <= 1.5: {'met' if p95 <= 1.5 else 'MISSED'})")
    doubt = sum(1 for l in lines if l.get("doubtful"))
    print(f"captures with a field for the player to confirm: {doubt}/{n}")
    return rows


def main(argv):
    if argv[:1] == ["--heldout-rule"]:
        names = [f for f in os.listdir(argv[1]) if f.lower().endswith((".png", ".jpg", ".jpeg", ".webp"))]
        print("\n".join(heldout_rule(names)))
        return 0
    truth_path, checked_path, heldout_path, out_path = argv[:4]
    photos = {p["file"]: p for p in json.load(open(argv[4]))} if len(argv) > 4 else None
    label = "simulated photos" if photos else "real development set"
    truth = {t["file"]: t for t in json.load(open(truth_path))}
    checked = {k: v for k, v in json.load(open(checked_path)).items() if not k.startswith("_")}
    heldout = {l.strip() for l in open(heldout_path) if l.strip() and not l.startswith("#")}
    if sorted(heldout) != heldout_rule(list(truth)):
        print(f"warning: {heldout_path} is not the list the rule gives for {truth_path}")
    lines = [json.loads(l) for l in open(out_path)]
    # A simulated image is named after its capture (CAPTURE~how.jpg): it
    # belongs to the capture's set.
    for l in lines:
        base = os.path.basename(l["file"])
        l["capture"] = base.split("~")[0]
        if photos:
            l["hidden"] = photos.get(base, {}).get("hidden", [])
            l["how"] = photos.get(base, {}).get("how", "?")
            l["covered"] = photos.get(base, {}).get("covered", [])
    sets = [("tuning set", [l for l in lines if l["capture"] not in heldout]),
            ("held out", [l for l in lines if l["capture"] in heldout])]
    summary = []
    for name, ls in sets:
        if ls:
            summary.append((name, len(ls), report(f"{label}, {name}", ls, truth, checked)))
    print(f"\n-- {label}: summary (goals: >= 97% of shown numbers, 0 wrong and not doubtful)")
    for name, n, rows in summary:
        for how, right, shown, screens_right, silent, failing in rows:
            print(f"{name:10s} {how:22s} {right:4d}/{shown:<4d} = {pct(right, shown):5.1f}%   "
                  f"screens {screens_right:3d}/{n:<3d}   wrong, not doubtful {len(silent)}")
    if photos:
        print(f"\n-- {label} by kind, as checked by eye (tuning set | held out)")
        for kind in sorted({l["how"] for l in lines}):
            cells = []
            for name, ls in sets:
                ks = [l for l in ls if l["how"] == kind]
                per, screens_right, silent, _, _ = score(ks, truth, checked, True)
                right = sum(v[0] for v in per.values())
                shown = sum(v[1] for v in per.values())
                secs = sorted(l["seconds"] for l in ks) or [0]
                p95 = secs[min(len(secs) - 1, (95 * len(secs) + 99) // 100 - 1)]
                cells.append(f"{right:4d}/{shown:<4d} = {pct(right, shown):5.1f}%, screens {screens_right:2d}/{len(ks):<2d}, "
                             f"silent {len(silent)}, p95 {p95:.2f} s")
            print(f"{kind:11s} " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
