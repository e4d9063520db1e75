#!/bin/sh
# One backup of Pitlane's PostgreSQL: pg_dump's custom format (compressed, restored with
# pg_restore) into BACKUP_DIR, named by its UTC time, written under a temporary name first so a
# dump cut short is never taken for a backup; only the newest BACKUP_KEEP are kept.
#   DATABASE_URL=postgres://... BACKUP_DIR=/var/backups/pitlane deploy/backup.sh
# Run on a schedule: the compose file's "backup" service (hourly), or deploy/pitlane-backup.timer.
# scripts/restore-drill.sh restores the newest one into a fresh database and checks it.
set -eu
: "${DATABASE_URL:?DATABASE_URL: the database to back up}"
dir=${BACKUP_DIR:-/var/backups/pitlane}
keep=${BACKUP_KEEP:-48}
mkdir -p "$dir"
name="pitlane-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --no-privileges --file "$dir/.$name.part" "$DATABASE_URL"
mv "$dir/.$name.part" "$dir/$name"
# The newest $keep stay (the names sort by time).
ls -1 "$dir" | grep -E '^pitlane-[0-9TZ]+\.dump$' | sort -r | tail -n +"$((keep + 1))" | while read -r old; do
  rm -f "$dir/$old"
done
echo "$dir/$name"
