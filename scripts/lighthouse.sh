#!/usr/bin/env bash
# Lighthouse 12 scores (median of three runs) of /, /tournament, /auction, /captain and /admin
# (signed in as the demo's captain A and organiser), the first match and /ppt, on a running server
# (default the one `make run` starts, demo league at phase matches), with Debian's Chromium.
# Lighthouse is installed into a temporary folder from the npm registry; nothing is added to the
# project. RUNS=n changes the number of runs, PAGES=/,/auction a subset (or any other public path, e.g. /players/3; /matches/first is the first match), REPORTS=dir keeps the reports; DEMO_PASSWORD the
# demo accounts' password (make run: pitlane-demo).
set -euo pipefail
base=${1:-http://127.0.0.1:8080}
dir=${LIGHTHOUSE_DIR:-/tmp/pitlane-lighthouse}
[ -d "$dir/node_modules/lighthouse" ] || npm install --prefix "$dir" --no-audit --no-fund --loglevel=error lighthouse@12 >/dev/null
[ -d "$(dirname "$0")/../web/node_modules/playwright-core" ] || (cd "$(dirname "$0")/../web" && npm ci --no-audit --no-fund --loglevel=error)
exec node "$(dirname "$0")/lighthouse.mjs" "$base" "$dir"
