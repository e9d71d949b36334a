#!/usr/bin/env bash
# One load-benchmark run from scratch: fresh tables, a 2-worker uvicorn, the client, cleanup.
#
#   bench/load/run.sh TABLES ROUNDS [client options...]
#   bench/load/run.sh 500 1 --mode open --period 5 --duration 60
#   bench/load/run.sh 100 3 --mode closed --duration 60
#
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379; uses the
# database rosbi_bench and Redis DB 3 (override with BENCH_DATABASE_URL / BENCH_REDIS_URL).
# Figures are printed and written to var/bench_load/last.json. Stops only the server it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
TABLES=${1:?number of tables}
ROUNDS=${2:?rounds per group of four}
shift 2
PORT=${BENCH_PORT:-8765}
PY=.venv/bin/python
. bench/load/env.sh

createdb -h 127.0.0.1 -U postgres rosbi_bench 2>/dev/null || true
$PY manage.py migrate --noinput -v0
# Tables of earlier runs stay finished or abandoned; they cost nothing but disk.
$PY manage.py bench_tables --tables "$TABLES" --rounds "$ROUNDS" --out var/bench_load/tables.json

# As deployed: no per-message compression. BENCH_UVICORN_ARGS adds server options for
# experiments, e.g. "--ws-per-message-deflate true" to measure it on again.
# shellcheck disable=SC2086
.venv/bin/uvicorn rosbi_platform.asgi:application --host 127.0.0.1 --port "$PORT" \
    --workers 2 --no-access-log --log-level warning --ws-per-message-deflate false \
    ${BENCH_UVICORN_ARGS:-} &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true' EXIT
# Any HTTP answer will do (/healthz says 503 without a Celery worker, which this run needs not).
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
    sleep 0.3
done
# Both workers serve a page before the baseline RSS is taken.
for _ in 1 2 3 4 5 6; do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" || true; done
sleep 2
echo "machine: $(nproc) cores; $(uptime)"
$PY bench/load/client.py --plan var/bench_load/tables.json --server-pid "$SERVER" \
    --url "ws://127.0.0.1:$PORT" --origin "http://127.0.0.1:$PORT" \
    --json var/bench_load/last.json "$@"
