#!/bin/sh
# Restores a backup (deploy/backup.sh's pg_dump) into an empty database and gives that database a
# new identity: the hub keeps each topic's seqs in Redis under the database's identity, and a
# restored copy's outbox starts again below the seqs Redis holds for the original, whose events
# would then be skipped as delivered. With a new identity its clients resync once instead.
#   deploy/restore.sh /var/backups/pitlane/pitlane-20261128T040000Z.dump postgres://…/pitlane_restored
# scripts/restore-drill.sh runs it on every drill.
set -eu
dump=${1:?usage: deploy/restore.sh DUMP DATABASE_URL (an empty database)}
url=${2:?usage: deploy/restore.sh DUMP DATABASE_URL (an empty database)}
pg_restore --no-owner --no-privileges --exit-on-error --dbname "$url" "$dump"
psql -X -q -v ON_ERROR_STOP=1 "$url" -c "UPDATE site_identity
  SET id = substr(md5(random()::text || clock_timestamp()::text || current_database()), 1, 16)"
