#!/usr/bin/env bash
# The restore drill: restore the newest backup into a fresh database and check that it is one
# consistent league, with the night scenario's own check (pitlane-load check-league).
#   scripts/restore-drill.sh             # make test: a small night, backed up with deploy/backup.sh,
#                                        # restored, checked against what the night did (its ledger)
#   scripts/restore-drill.sh DIR [-season S -next-season N]
#                                        # the newest pitlane-*.dump in DIR (e.g. the compose file's
#                                        # backups volume), checked for what holds of any league:
#                                        # season S's auction (PPL7), N's registrations (PPL8)
# PITLANE_BIN: the pitlane binary (default bin/pitlane, built by make build).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
eval "$(scripts/services.sh)"
bin=${PITLANE_BIN:-$PWD/bin/pitlane}
[ -x "$bin" ] || { echo "restore-drill: $bin missing (make build)" >&2; exit 1; }
tmp=$(mktemp -d)
restored="pitlane_restore_$$_$(date +%s)"
night_db="" prefix=""
cleanup() {
  for db in "$restored" "$night_db"; do
    [ -n "$db" ] && psql -X -q "$PITLANE_PG_ADMIN" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  done
  if [ -n "$prefix" ]; then
    redis-cli -u "$PITLANE_REDIS" --scan --pattern "$prefix*" 2>/dev/null | xargs -r redis-cli -u "$PITLANE_REDIS" del >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/pitlane-load" ./cmd/pitlane-load

check_args=()
if [ $# -eq 0 ]; then
  echo "restore-drill: a small night"
  "$tmp/pitlane-load" night -pitlane "$bin" -database-url "$PITLANE_PG_ADMIN" -redis-url "$PITLANE_REDIS" \
    -instances 1 -spectators 20 -procs 1 -local-ips 1 -players 4 -lots 2 -lot-seconds 2 -late-bid-seconds 1 \
    -bid-interval 100ms -player-interval 100ms -room-interval 300ms -match-interval 50ms \
    -format single_elimination -idle 200ms -settle 300ms -timeout 3m \
    -keep -ledger "$tmp/ledger.json" >"$tmp/night.log" 2>&1 || { tail -30 "$tmp/night.log" >&2; exit 1; }
  night_url=$(jq -r .database_url "$tmp/ledger.json")
  night_db=$(python3 -c 'import sys, urllib.parse as u; print(u.urlsplit(sys.argv[1]).path.lstrip("/"))' "$night_url")
  prefix=$(jq -r .redis_prefix "$tmp/ledger.json")
  echo "restore-drill: backing up $night_db with deploy/backup.sh"
  DATABASE_URL="$night_url" BACKUP_DIR="$tmp/backups" deploy/backup.sh >/dev/null
  backups="$tmp/backups"
  check_args=(-ledger "$tmp/ledger.json")
else
  backups=$1
  shift
  check_args=("$@") # -season, -next-season
fi

latest=$(ls -1 "$backups" | grep -E '^pitlane-[0-9TZ]+\.dump$' | sort | tail -n 1 || true)
[ -n "$latest" ] || { echo "restore-drill: no pitlane-*.dump in $backups" >&2; exit 1; }
echo "restore-drill: restoring $latest ($(du -h "$backups/$latest" | cut -f1)) into $restored"
psql -X -q "$PITLANE_PG_ADMIN" -c "CREATE DATABASE $restored"
url=$(scripts/db-url.sh "$PITLANE_PG_ADMIN" "$restored")
deploy/restore.sh "$backups/$latest" "$url"
"$tmp/pitlane-load" check-league -pitlane "$bin" -database-url "$url" "${check_args[@]}"
echo "restore-drill: done in $(( $(date +%s) - start ))s"
