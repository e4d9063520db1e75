#!/usr/bin/env bash
# Lighthouse scores of /, /tournament and /ppt on a running server (default the
# one `make run` starts), with Debian's Chromium. Lighthouse is installed into a
# temporary folder from the npm registry; nothing is added to the project.
set -euo pipefail
base=${1:-http://127.0.0.1:8080}
dir=${LIGHTHOUSE_DIR:-/tmp/pitlane-lighthouse}
[ -x "$dir/node_modules/.bin/lighthouse" ] || npm install --prefix "$dir" --no-audit --no-fund --loglevel=error lighthouse@12 >/dev/null
for p in / /tournament /ppt; do
  CHROME_PATH=/usr/bin/chromium "$dir/node_modules/.bin/lighthouse" "$base$p" --quiet --output=json --output-path="$dir/report.json" \
    --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run" >/dev/null 2>&1
  python3 -c "import json,sys; d=json.load(open('$dir/report.json')); print('$p', ' '.join(f\"{k}={round(v['score']*100)}\" for k,v in d['categories'].items()))"
done
