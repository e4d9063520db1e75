#!/usr/bin/env bash
# make bench-extract: draws N synthetic stats screens (several layouts, fonts,
# sizes, themes, PNG and JPEG, noise), reads them with `pitlane extract` (the
# offline Tesseract reader unless GEMINI_API_KEY is set) and prints per-field
# accuracy and seconds per screenshot.   N=120 SEED=2 make bench-extract
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tesseract >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; }
go build -o bin/pitlane ./cmd/pitlane
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin/pitlane extract -screens "$dir" -n "${N:-60}" -seed "${SEED:-1}" >/dev/null
start=$(date +%s.%N)
bin/pitlane extract "$dir"/screen-* > "$dir/out.jsonl" || true
end=$(date +%s.%N)
python3 - "$dir" "$start" "$end" <<'PY'
import json, sys, os
d, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
truth = {t["file"]: t for t in json.load(open(os.path.join(d, "truth.json")))}
fields = ["discord_username", "level", "kills", "deaths", "total_games", "sk_id", "kd_ratio"]
right = {f: 0 for f in fields}
lines = [json.loads(l) for l in open(os.path.join(d, "out.jsonl"))]
secs = []
for l in lines:
    t = truth[os.path.basename(l["file"])]
    secs.append(l["seconds"])
    for f in fields:
        if l.get(f) == t[f]:
            right[f] += 1
        else:
            print(f"  {os.path.basename(l['file'])}: {f} read {l.get(f)!r}, truth {t[f]!r}")
n = len(lines)
print(f"\n{n} screens, {sum(1 for l in lines if l.get('cart_image'))} with a kart image")
for f in fields:
    goal = 90 if f == "discord_username" else 97
    pct = 100 * right[f] / n
    print(f"{f:17s} {right[f]:4d}/{n}  {pct:5.1f}%  (goal >= {goal}%: {'met' if pct >= goal else 'MISSED'})")
secs.sort()
print(f"seconds per screenshot: mean {sum(secs)/n:.2f}, p50 {secs[n//2]:.2f}, max {secs[-1]:.2f} (goal <= 1.5); wall {end-start:.1f} s")
PY
