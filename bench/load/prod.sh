#!/usr/bin/env bash
# The production shape under load: uvicorn with 2 workers (the flags of docker-compose.yml),
# a Celery worker (--concurrency=2) and beat, PostgreSQL and Redis; then one scenario.
#
#   bench/load/prod.sh storm  [storm.py options]    # 1,000 tables x 4 sockets dropped and reconnected,
#                                                   # then the same storm on /ws/ping/ (STORM_TARGETS)
#   bench/load/prod.sh soak   [soak.py options]     # 500 tables, ~100 moves/s for 30 minutes
#   bench/load/prod.sh reads  [reads.py options]    # 100 page reads/s while ~100 moves/s are played
#   bench/load/prod.sh api    [bench/api/reads.py run options]
#                                                   # API v1 reads (database seeded by
#                                                   # `bench/api/reads.py seed`): the same open loop
#                                                   # on /api/v1/me first (the API's floor), then the mix
#
# Sizes: STORM_TABLES (1000), SOAK_TABLES (500) and SOAK_ROUNDS (3), READS_TABLES (500).
# Clocks: TURN_SECONDS (default 3000 for soak and reads, 0 for storm). Creating 1,500 tables takes
# minutes, so a 30 s clock started at creation would run out before the table is played and the
# beat's sweeper would hand the seats to bots, adding bot moves to the offered load; 3000 s
# keeps a clock on every move (as production) without expiries (3600 and more = turn-based,
# with e-mails). PLAN_FROM=var/bench_load/plan-soak.json reuses a plan instead of creating
# tables (with --rounds 1,2 the scenario takes the later rounds' tables; finished ones are left out).
# Database and Redis as in env.sh (BENCH_DATABASE_URL / BENCH_REDIS_URL); VENV (default .venv)
# names the virtualenv. Figures are printed and written to var/bench_load/<scenario>-*.json.
# Every process started here is stopped when the script ends, also on failure or Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCENARIO=${1:?storm, soak or reads}
shift
PORT=${BENCH_PORT:-8765}
VENV=${VENV:-.venv}
PY=$VENV/bin/python
. bench/load/env.sh
DATABASE_NAME=${DATABASE_URL##*/}
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=var/bench_load
LOGS=$OUT/logs-$SCENARIO-$STAMP
mkdir -p "$LOGS"

GROUPS_STARTED=""
stop_all() {
    # Each service runs in its own process group (setsid): TERM the groups, wait, then KILL.
    for group in $GROUPS_STARTED; do kill -TERM -- "-$group" 2>/dev/null || true; done
    for _ in $(seq 1 40); do
        alive=0
        for group in $GROUPS_STARTED; do kill -0 -- "-$group" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.5
    done
    for group in $GROUPS_STARTED; do kill -KILL -- "-$group" 2>/dev/null || true; done
    GROUPS_STARTED=""
}
trap stop_all EXIT
trap 'exit 130' INT TERM

start() {  # start NAME COMMAND...: in its own process group, output to $LOGS/NAME.log
    local name=$1
    shift
    setsid "$@" >"$LOGS/$name.log" 2>&1 &
    GROUPS_STARTED="$GROUPS_STARTED $!"
    eval "PID_$name=$!"
}

createdb -h 127.0.0.1 -U postgres "$DATABASE_NAME" 2>/dev/null || true
$PY manage.py migrate --noinput -v0
$PY manage.py collectstatic --noinput -v0

case $SCENARIO in
    storm) PLAN_ARGS=(--tables "${STORM_TABLES:-1000}" --rounds 1 --turn-seconds "${TURN_SECONDS:-0}") ;;
    soak) PLAN_ARGS=(--tables "${SOAK_TABLES:-500}" --rounds "${SOAK_ROUNDS:-3}" --turn-seconds "${TURN_SECONDS:-3000}") ;;
    reads) PLAN_ARGS=(--tables "${READS_TABLES:-500}" --rounds 1 --turn-seconds "${TURN_SECONDS:-3000}") ;;
    api) PLAN_FROM=none ;;
    *) echo "unknown scenario $SCENARIO" >&2; exit 2 ;;
esac
if [ -n "${PLAN_FROM:-}" ]; then
    PLAN=$PLAN_FROM
else
    PLAN=$OUT/plan-$SCENARIO.json
    $PY manage.py bench_tables "${PLAN_ARGS[@]}" --out "$PLAN"
fi

# As docker-compose.yml starts them (the web service's flags; --host stays 127.0.0.1).
start web "$VENV/bin/uvicorn" rosbi_platform.asgi:application --host 127.0.0.1 --port "$PORT" \
    --workers "${WEB_WORKERS:-2}" --lifespan=off --no-access-log --log-level warning \
    --ws-per-message-deflate=false
start worker "$VENV/bin/celery" -A rosbi_platform worker --loglevel=WARNING --concurrency=2
start beat "$VENV/bin/celery" -A rosbi_platform beat --loglevel=WARNING \
    --schedule "$LOGS/celerybeat-schedule" --pidfile=
# Ready when /healthz says 200: database, Redis and a Celery worker answer.
ready=0
for _ in $(seq 1 120); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")" = 200 ]; then
        ready=1
        break
    fi
    sleep 0.5
done
[ "$ready" = 1 ] || { echo "server not healthy; logs in $LOGS" >&2; exit 1; }
# Both workers serve something before any baseline RSS is taken.
for _ in 1 2 3 4 5 6 7 8; do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" || true; done
sleep 2
echo "machine: $(nproc) cores; $(uptime)"
echo "pids: web $PID_web, worker $PID_worker, beat $PID_beat; logs in $LOGS"

COMMON=(--plan "$PLAN" --server-pid "$PID_web" --celery-pids "$PID_worker,$PID_beat"
        --url "ws://127.0.0.1:$PORT" --origin "http://127.0.0.1:$PORT" --database "$DATABASE_NAME")
case $SCENARIO in
    storm)  # STORM_TARGETS: both storms on the same server, one after the other
        for target in ${STORM_TARGETS:-tables ping}; do
            $PY bench/load/storm.py "${COMMON[@]}" --target "$target" \
                --json "$OUT/storm-$target-$STAMP.json" "$@"
            echo "machine: $(uptime)"
            sleep 5
        done ;;
    soak) $PY bench/load/soak.py "${COMMON[@]}" --json "$OUT/soak-$STAMP.json" "$@" ;;
    reads) $PY bench/load/reads.py "${COMMON[@]}" --json "$OUT/reads-$STAMP.json" "$@" ;;
    api)
        for phase in --baseline ""; do
            $PY bench/api/reads.py run --server "http://127.0.0.1:$PORT" --database "$DATABASE_NAME" $phase "$@"
            echo "machine: $(uptime)"
            sleep 5
        done ;;
esac
echo "machine after: $(uptime)"
