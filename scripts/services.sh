#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis run here (installing them from Debian's
# packages on a fresh machine), and prints the variables that reach them:
#   eval "$(scripts/services.sh)"
# sets PITLANE_PG_ADMIN (a URL of a superuser) and PITLANE_REDIS (a Redis URL).
set -euo pipefail
log() { echo "services: $*" >&2; }
apt_updated=""
need_pkg() { # need_pkg COMMAND PACKAGE...
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing ${*:2}"
  if [ -z "$apt_updated" ]; then apt-get update -qq >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${@:2}" >&2
}

# PostgreSQL
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    need_pkg pg_ctlcluster postgresql postgresql-client
  fi
  ver=$(ls /etc/postgresql | sort -n | tail -1)
  log "starting PostgreSQL $ver"
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start >&2 || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
# Use TCP as postgres when the server trusts it (this kind of machine);
# otherwise a superuser role named after us over the local socket (fresh Debian).
if psql -X -q -h 127.0.0.1 -U postgres -d postgres -c 'select 1' >/dev/null 2>&1 </dev/null; then
  echo "export PITLANE_PG_ADMIN='postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'"
else
  me=$(id -un)
  if ! psql -X -q -d postgres -c 'select 1' >/dev/null 2>&1 </dev/null; then
    log "creating PostgreSQL role $me"
    su postgres -c "createuser --superuser $me" >&2 || true
  fi
  echo "export PITLANE_PG_ADMIN='postgres:///postgres?host=/var/run/postgresql&user=$me'"
fi

# Redis
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  need_pkg redis-server redis-server
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/pitlane.log >&2
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
echo "export PITLANE_REDIS='redis://127.0.0.1:6379/0'"
