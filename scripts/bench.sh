#!/usr/bin/env bash
# make bench: loads 1,000 registered players into a fresh database, serves
# them, and measures the public list and the profile with wrk on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/services.sh)"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
go build -o bin/pitlane ./cmd/pitlane
DURATION=${DURATION:-15s} CONNS=${CONNS:-64} PORT=${PORT:-18181}
db="pitlane_bench_$$"
psql -X -q "$PITLANE_PG_ADMIN" -c "CREATE DATABASE $db"
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  psql -X -q "$PITLANE_PG_ADMIN" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
export DATABASE_URL="$(scripts/db-url.sh "$PITLANE_PG_ADMIN" "$db")"
export ADMIN_EMAILS=organiser@demo.pitlane.local RATE_LIMIT_SCALE=1000000 ADDR=127.0.0.1:$PORT
export PITLANE_DATA_DIR="$(mktemp -d)"
bin/pitlane seed-demo -players 1000 -password bench-password
bin/pitlane serve 2>/tmp/pitlane-bench.log &
pid=$!
for _ in $(seq 1 50); do curl -fs "http://$ADDR/readyz" >/dev/null && break; sleep 0.2; done
token=$(curl -fs -H 'Content-Type: application/json' -d '{"email":"organiser@demo.pitlane.local","password":"bench-password"}' \
  "http://$ADDR/api/auth/login" | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')
size=$(curl -fs -H 'Accept-Encoding: gzip' "http://$ADDR/api/tournament/registrations" | wc -c)
plain=$(curl -fs "http://$ADDR/api/tournament/registrations" | wc -c)
echo "registrations: 1000 players, $plain bytes JSON, $size bytes gzipped"
echo
echo "== GET /api/tournament/registrations (gzip), $CONNS connections, $DURATION"
wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: gzip' "http://$ADDR/api/tournament/registrations"
echo
echo "== GET /api/auth/profile (bearer token), $CONNS connections, $DURATION"
wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H "Authorization: Bearer $token" "http://$ADDR/api/auth/profile"
