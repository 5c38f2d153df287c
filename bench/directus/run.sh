#!/usr/bin/env bash
# The timed run of bench/directus.ts (README.md): starts the Directus that setup.sh bootstrapped
# in $DIRECTUS_DIR, waits until it answers, lets its Public policy read (grant.sh: adds nothing
# the second time), runs bench/directus.ts with Directus' pid (its CPU per request) and stops
# Directus again, also when the run fails. The report goes to the terminal and to
# bench/results/directus-<time>.md (git-ignored). Arguments go to bench/directus.ts (the
# benchmark database); BENCH_* variables too (bench/README.md).
# Usage: bench/directus/run.sh [benchmark database]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIRECTUS_DIR=${DIRECTUS_DIR:-/tmp/directus}
export DIRECTUS_URL=${DIRECTUS_URL:-http://127.0.0.1:${DIRECTUS_PORT:-8055}}
if [ ! -f "$DIRECTUS_DIR/.env" ]; then
  echo "Directus is not set up in $DIRECTUS_DIR: bench/directus/README.md, steps 1-3" >&2
  exit 1
fi
if curl -sf "$DIRECTUS_URL/server/ping" > /dev/null; then
  echo "something already answers on $DIRECTUS_URL: stop it first (this script starts and stops its own Directus)" >&2
  exit 1
fi
# Directus serves from this one Node process (no cluster), whose CPU bench/directus.ts reads.
(cd "$DIRECTUS_DIR" && exec node node_modules/directus/cli.js start) > "$DIRECTUS_DIR/directus.log" 2>&1 &
DIRECTUS_PID=$!
stop() {
  kill "$DIRECTUS_PID" 2> /dev/null || true
  wait "$DIRECTUS_PID" 2> /dev/null || true
}
trap stop EXIT
for _ in $(seq 1 180); do
  if curl -sf "$DIRECTUS_URL/server/ping" > /dev/null; then break; fi
  if ! kill -0 "$DIRECTUS_PID" 2> /dev/null; then
    echo "Directus exited before answering; $DIRECTUS_DIR/directus.log:" >&2
    cat "$DIRECTUS_DIR/directus.log" >&2
    exit 1
  fi
  sleep 1
done
curl -sf "$DIRECTUS_URL/server/ping" > /dev/null || { echo "Directus did not answer within 180 s" >&2; exit 1; }
"$HERE/grant.sh"
cd "$ROOT"
mkdir -p bench/results
REPORT="bench/results/directus-$(date -u +%Y%m%dT%H%M%SZ).md"
DIRECTUS_PID=$DIRECTUS_PID node --import tsx bench/directus.ts "$@" | tee "$REPORT"
echo "report: $REPORT"
