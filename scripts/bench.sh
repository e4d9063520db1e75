#!/usr/bin/env bash
# make bench: loads 1,000 registered players into a fresh database, serves
# them, and measures the public list and the profile with wrk on loopback;
# then a league's memory: a player's profile, the search, a leaderboard and a
# link preview's picture. PLAYERS and SEASONS choose the league's size
# (PLAYERS=10000 SEASONS=20: ten thousand players, nineteen seasons played
# before the current one); BENCH_DATABASE_URL measures a league loaded before
# (seed-demo -players … -seasons …) instead of loading one.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/services.sh)"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
go build -o bin/pitlane ./cmd/pitlane
DURATION=${DURATION:-15s} CONNS=${CONNS:-64} PORT=${PORT:-18181} PLAYERS=${PLAYERS:-1000} SEASONS=${SEASONS:-1}
db="pitlane_bench_$$"
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  [ -n "${BENCH_DATABASE_URL:-}" ] || psql -X -q "$PITLANE_PG_ADMIN" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
if [ -n "${BENCH_DATABASE_URL:-}" ]; then
  export DATABASE_URL="$BENCH_DATABASE_URL"
else
  psql -X -q "$PITLANE_PG_ADMIN" -c "CREATE DATABASE $db"
  export DATABASE_URL="$(scripts/db-url.sh "$PITLANE_PG_ADMIN" "$db")"
fi
export ADMIN_EMAILS=organiser@demo.pitlane.local RATE_LIMIT_SCALE=1000000 ADDR=127.0.0.1:$PORT
export PITLANE_DATA_DIR="$(mktemp -d)"
[ -n "${BENCH_DATABASE_URL:-}" ] || bin/pitlane seed-demo -players "$PLAYERS" -seasons "$SEASONS" -password bench-password
bin/pitlane serve 2>/tmp/pitlane-bench.log &
pid=$!
for _ in $(seq 1 50); do curl -fs "http://$ADDR/readyz" >/dev/null && break; sleep 0.2; done
token=$(curl -fs -H 'Content-Type: application/json' -d '{"email":"organiser@demo.pitlane.local","password":"bench-password"}' \
  "http://$ADDR/api/auth/login" | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])' || true)
size=$(curl -fs -H 'Accept-Encoding: gzip' "http://$ADDR/api/tournament/registrations" | wc -c)
plain=$(curl -fs "http://$ADDR/api/tournament/registrations" | wc -c)
count=$(curl -fs "http://$ADDR/api/tournament/registrations?limit=1" | python3 -c 'import sys,json; print(json.load(sys.stdin)["count"])')
echo "registrations: $count players; the first page (default size) $plain bytes JSON, $size bytes gzipped"
echo
echo "== GET /api/tournament/registrations (gzip), $CONNS connections, $DURATION"
wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: gzip' "http://$ADDR/api/tournament/registrations"
echo
if [ -n "$token" ]; then
  echo "== GET /api/auth/profile (bearer token), $CONNS connections, $DURATION"
  wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H "Authorization: Bearer $token" "http://$ADDR/api/auth/profile"
fi

# A league's memory: the player with the most kills in league matches (or
# the first player, before any match), a search by part of a name.
player=$(curl -fs "http://$ADDR/api/leaderboards/kills?limit=1" | python3 -c 'import sys,json; r=json.load(sys.stdin)["rows"]; print(r[0]["id"] if r else 2)')
page2=$(curl -fs "http://$ADDR/api/tournament/registrations?limit=100" | python3 -c 'import sys,json,urllib.parse; print(urllib.parse.quote(json.load(sys.stdin)["next_cursor"] or ""))')
for path in "/api/tournament/registrations?limit=100&cursor=$page2" "/api/tournament/registrations?sort=newest&limit=100" "/api/players/$player" "/api/players?q=urbok" \
  "/api/leaderboards/kills" "/api/og/players/$player"; do
  echo
  echo "== GET $path (gzip), $CONNS connections, $DURATION"
  wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: gzip' "http://$ADDR$path"
done
