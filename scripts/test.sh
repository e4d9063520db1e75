#!/usr/bin/env bash
# make test: every test of the project (Go with real PostgreSQL and Redis, the
# web app's unit tests, and the browser end-to-end tests), starting and
# installing what they need. Each run works in databases of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$*" $(( $(date +%s) - start )); }

step "services"
eval "$(scripts/services.sh)"
export PITLANE_TEST_DATABASE_URL="$PITLANE_PG_ADMIN" PITLANE_TEST_REDIS_URL="$PITLANE_REDIS"

missing=()
command -v tesseract >/dev/null || missing+=(tesseract-ocr tesseract-ocr-eng)
command -v chromium >/dev/null || missing+=(chromium)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v redis-sentinel >/dev/null || missing+=(redis-sentinel)
# The restore drill: pg_dump and pg_restore (deploy/backup.sh, deploy/restore.sh), jq for its ledger.
command -v pg_restore >/dev/null || missing+=(postgresql-client)
command -v jq >/dev/null || missing+=(jq)
# promtool checks deploy/'s Prometheus configuration and alert rules (deploy/deploy_test.go).
command -v promtool >/dev/null || missing+=(prometheus)
if [ ${#missing[@]} -gt 0 ]; then
  step "installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "build (web app and binary)"
make --no-print-directory build

# The browser end-to-end tests wait on servers, browsers and timers far more than they compute, and
# need only the build: they run in the background, in a session of their own, beside the static
# checks (go vet, staticcheck, ESLint: no clock in them), their output kept in a file and printed
# once those are done. The Go tests, the restore drill, the fuzzing and the web unit tests mind a
# loaded machine and run alone after them, as before.
db="pitlane_e2e_$$_$(date +%s)"
prefix="$db:"
e2e_log=$(mktemp)
e2e_pid=""
stripe_pid=""
cleanup() {
  if [ -n "$stripe_pid" ]; then kill "$stripe_pid" 2>/dev/null || true; fi
  if [ -n "$e2e_pid" ] && kill -0 "$e2e_pid" 2>/dev/null; then
    kill -TERM -- "-$e2e_pid" 2>/dev/null || true
    wait "$e2e_pid" 2>/dev/null || true
  fi
  psql -X -q "$PITLANE_PG_ADMIN" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -u "$PITLANE_REDIS" --scan --pattern "$prefix*" 2>/dev/null | xargs -r redis-cli -u "$PITLANE_REDIS" del >/dev/null 2>&1 || true
  rm -f "$e2e_log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
psql -X -q "$PITLANE_PG_ADMIN" -c "CREATE DATABASE $db"

step "browser end-to-end tests (in the background, beside the static checks)"
E2E_DATABASE_URL="$(scripts/db-url.sh "$PITLANE_PG_ADMIN" "$db")" PITLANE_BIN="$PWD/bin/pitlane" \
  E2E_REDIS_URL="$PITLANE_REDIS" E2E_REDIS_PREFIX="$prefix" \
  setsid npm --prefix web run --silent e2e >"$e2e_log" 2>&1 </dev/null &
e2e_pid=$!
e2e_start=$(date +%s)

step "go vet"
go vet ./...

step "go staticcheck"
# Pinned: 2026.2.2 (module v0.8.2) knows Go 1.26; installed from the Go module proxy when missing.
staticcheck="$(go env GOPATH)/bin/staticcheck"
if ! "$staticcheck" -version 2>/dev/null | grep -q '(0\.8\.2)'; then
  go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
"$staticcheck" ./...

step "web lint"
(cd web && npm run --silent lint)

step "browser end-to-end tests: waiting for them to end"
e2e_status=0
wait "$e2e_pid" || e2e_status=$?
e2e_pid=""
cat "$e2e_log"
echo "(the browser end-to-end tests took $(( $(date +%s) - e2e_start ))s)"
if [ "$e2e_status" -ne 0 ]; then
  echo "browser end-to-end tests failed (exit $e2e_status)" >&2
  exit 1
fi

step "stripe-mock (Stripe's official mock: the payments tests call it through stripe-go)"
stripe_mock="$(go env GOPATH)/bin/stripe-mock"
if ! [ -x "$stripe_mock" ]; then
  go install github.com/stripe/stripe-mock@v0.203.0
fi
# A free port: one nothing answers on.
stripe_port=$(( 20000 + RANDOM % 20000 ))
while (exec 3<>"/dev/tcp/127.0.0.1/$stripe_port") 2>/dev/null; do stripe_port=$(( 20000 + RANDOM % 20000 )); done
"$stripe_mock" -http-port "$stripe_port" >/dev/null 2>&1 &
stripe_pid=$!
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$stripe_port/v1/charges" -u sk_test_x: 2>/dev/null && break; sleep 0.1; done
export PITLANE_TEST_STRIPE_URL="http://127.0.0.1:$stripe_port"

step "go test"
go test -count=1 -timeout 15m ./...

step "restore drill (a small night backed up, restored into a fresh database, checked)"
scripts/restore-drill.sh

step "go fuzz (the screenshot reader, bounded)"
# Each of the reader's fuzz targets for a bounded number of inputs, about 12 s of fuzzing each on
# two loaded cores (about 2 minutes in all with the builds): a panic, or a screen read too slowly,
# fails the run and leaves the input in internal/extract/testdata/fuzz. A count, not a time: a
# time limit can end in a spurious "context deadline exceeded" failure (golang/go#75804, a race in
# Go's fuzzing coordinator fixed in Go 1.27), and FuzzScreen's seeds alone can take 12 s on a busy
# machine, so a time limit never fuzzed it past them. FUZZTIME (say 30s or 1000x) sets one limit
# for all five.
for spec in FuzzScreen:60x FuzzUpload:20000x FuzzGlyphs:5000x FuzzEXIF:80000x FuzzWords:15000x; do
  target=${spec%%:*}
  go test -run '^$' -fuzz "^$target\$" -fuzztime "${FUZZTIME:-${spec#*:}}" -fuzzminimizetime 50x ./internal/extract
done

step "web unit tests"
(cd web && npm test --silent)

step "done"
