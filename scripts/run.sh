#!/usr/bin/env bash
# make run: everything a fresh machine needs, then the site on :8080 with the demo league.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/services.sh)"
command -v tesseract >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng; }
make --no-print-directory build
db=${PITLANE_DB:-pitlane}
psql -X -q "$PITLANE_PG_ADMIN" -tc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 ||
  psql -X -q "$PITLANE_PG_ADMIN" -c "CREATE DATABASE $db" >/dev/null
export DATABASE_URL=${DATABASE_URL:-$(scripts/db-url.sh "$PITLANE_PG_ADMIN" "$db")}
# Live events go through Redis, as in production (REDIS_URL= serves without it).
export REDIS_URL=${REDIS_URL-$PITLANE_REDIS}
export ADMIN_EMAILS=${ADMIN_EMAILS:-organiser@demo.pitlane.local}
bin/pitlane migrate
bin/pitlane seed-demo -if-empty -seasons 3 -password pitlane-demo
echo
echo "Pitlane runs at http://localhost:${PORT:-8080}"
echo "  organiser: organiser@demo.pitlane.local / pitlane-demo (presenter of /ppt)"
echo "  captains:  captain.a@demo.pitlane.local ... captain.h@demo.pitlane.local / pitlane-demo"
echo "  sign-up codes are printed in this log (no SMTP_URL set)"
echo
ADDR=${ADDR:-:${PORT:-8080}} exec bin/pitlane serve
