#!/usr/bin/env bash
# make bench-extract: the offline reader (`pitlane extract`, Tesseract and
# the game's typeface; Gemini when GEMINI_API_KEY is set) on
#  1. the real development set: genuine Smash Karts captures with the numbers
#     their site typed (REAL_SCREENS, default ../shared/data/real-screens),
#     scored per shown field, per screen, against truth.json as given and as
#     checked by eye (scripts/real-screens-checked.json), timed on one core,
#     the tuning set and the held-out third (scripts/real-screens-heldout.txt)
#     apart;
#  2. simulated phone photos, recompressed and resized copies, crops and
#     tooltips of those captures (`pitlane extract -photos`, seed PHOTO_SEED;
#     PHOTOS=0 skips them; PHOTO_KINDS=portrait,crop makes only those kinds),
#     scored the same way, tuning set and held out apart;
#  3. N synthetic screens drawn by internal/extract/screens (seed SEED);
#  4. the reader's tests as full sweeps (EXTRACT_SWEEP=1: every real capture
#     in every variant, 300 odd screenshots, every fuzz base; go test reads
#     a sample of them). SWEEP=0 skips them (they take several minutes).
#   REAL_SCREENS=/path N=120 SEED=2 make bench-extract   (N=0: no synthetic screens)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tesseract >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; }
go build -o bin/pitlane ./cmd/pitlane
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One core, as the goal is stated: Tesseract and Go alike.
one=()
command -v taskset >/dev/null && one=(taskset -c 0)
export GOMAXPROCS=1 OMP_THREAD_LIMIT=1

real=${REAL_SCREENS:-}
if [[ -z "$real" ]]; then # shared/ beside the clone, or beside a worktree's parent
  for d in ../shared/data/real-screens ../../shared/data/real-screens; do [[ -d $d ]] && real=$d && break; done
fi
if [[ -f "$real/truth.json" ]]; then
  shopt -s nullglob
  files=("$real"/*.png "$real"/*.jpg "$real"/*.jpeg "$real"/*.webp)
  "${one[@]}" bin/pitlane extract "${files[@]}" > "$dir/real.jsonl" || true
  python3 scripts/bench-score-real.py "$real/truth.json" scripts/real-screens-checked.json scripts/real-screens-heldout.txt "$dir/real.jsonl"
  if [[ ${PHOTOS:-1} != 0 ]]; then
    echo
    echo "== simulated photos of the captures (PHOTO_SEED=${PHOTO_SEED:-1}): simulations, not photos =="
    bin/pitlane extract -photos "$dir/photos" -from "$real" -seed "${PHOTO_SEED:-1}" -kinds "${PHOTO_KINDS:-}"
    "${one[@]}" bin/pitlane extract "$dir"/photos/*~* > "$dir/photos.jsonl" || true
    python3 scripts/bench-score-real.py "$real/truth.json" scripts/real-screens-checked.json scripts/real-screens-heldout.txt \
      "$dir/photos.jsonl" "$dir/photos/photos.json"
  fi
else
  echo "real development set: $real/truth.json not found (set REAL_SCREENS)"
fi

sweep() {
  [[ ${SWEEP:-1} == 0 ]] && return 0
  echo
  echo "== the reader's tests as full sweeps (EXTRACT_SWEEP=1) =="
  EXTRACT_SWEEP=1 go test -count=1 -timeout 60m \
    -run 'TestOCRReadsRealCaptures|TestOddScreenshotsAreReadOrRefused|TestReaderSurvivesScreensThatCrashedIt|TestKartOnRealCaptures|TestStatsPanelWithoutTesseract|TestOCRReadsSyntheticScreens|FuzzScreen' \
    -v ./internal/extract | grep -E '^(--- |ok|FAIL|PASS)|fields \(|odd screenshots|karts cut out' || echo 'the sweeps FAILED (see above)'
}

if [[ ${N:-60} == 0 ]]; then # N=0: the real captures only
  sweep
  exit 0
fi
echo
echo "== synthetic screens (N=${N:-60}, SEED=${SEED:-1}) =="
bin/pitlane extract -screens "$dir/syn" -n "${N:-60}" -seed "${SEED:-1}" >/dev/null
"${one[@]}" bin/pitlane extract "$dir"/syn/screen-* > "$dir/out.jsonl" || true
python3 - "$dir/syn" "$dir/out.jsonl" <<'PY'
import json, sys, os
d, out = sys.argv[1], sys.argv[2]
truth = {t["file"]: t for t in json.load(open(os.path.join(d, "truth.json")))}
fields = ["discord_username", "level", "kills", "deaths", "total_games", "sk_id", "kd_ratio"]
right = {f: 0 for f in fields}
lines = [json.loads(l) for l in open(out)]
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
print(f"seconds per screenshot on one core: mean {sum(secs)/n:.2f}, p50 {secs[n//2]:.2f}, max {secs[-1]:.2f} (goal <= 1.5)")
PY
sweep
