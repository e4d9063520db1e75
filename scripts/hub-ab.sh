#!/usr/bin/env bash
# hub-ab.sh OLD NEW [pitlane-load ws flags...]: runs the same in-process
# broadcast with two pitlane-load binaries back to back, ROUNDS times (2),
# alternating which goes first, and prints one line per run:
#   ROUNDS=3 scripts/hub-ab.sh /tmp/pitlane-load-main /tmp/pitlane-load -clients 10000
set -euo pipefail
old=$1 new=$2
shift 2
for r in $(seq "${ROUNDS:-2}"); do
  order="$old $new"
  if (( r % 2 == 0 )); then order="$new $old"; fi
  for bin in $order; do
    out=$("$bin" ws -inprocess "$@" 2>/dev/null)
    lat=$(grep -oE 'p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms' <<<"$out" | head -1)
    cpu=$(grep -oE '[0-9.]+% without the idle share' <<<"$out" | head -1)
    mem=$(grep -oE 'connection: [0-9.]+ KB|all idle: [0-9.]+ KB' <<<"$out" | grep -oE '[0-9.]+ KB' | head -1)
    lost=$(grep -oE '[0-9]+ lost' <<<"$out" | head -1)
    echo "round $r $(basename "$bin"): $lat | server cpu $cpu | $mem per idle connection | $lost"
  done
done
