# Production-like environment for the load benchmark: `. bench/load/env.sh` in every shell that
# runs the set-up or the server. A dedicated PostgreSQL database and Redis DB 3 keep the
# benchmark away from everything else; the random SECRET_KEY is made once and kept under var/
# because the set-up signs the session cookies with it and the server must read them.
export DATABASE_URL="${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/rosbi_bench}"
export REDIS_URL="${BENCH_REDIS_URL:-redis://127.0.0.1:6379/3}"
mkdir -p var/bench_load
if [ ! -s var/bench_load/secret_key ]; then
    python3 -c 'import secrets; print(secrets.token_urlsafe(64))' > var/bench_load/secret_key
fi
SECRET_KEY="$(cat var/bench_load/secret_key)"
export SECRET_KEY
export DEBUG=false
export ALLOWED_HOSTS=127.0.0.1,localhost
export SECURE_SSL_REDIRECT=false
export LOG_LEVEL=WARNING
# The benchmark's clients all come from 127.0.0.1: the anonymous page throttle (production
# default 60/m per address) would answer most page reads with 429 and measure nothing.
export ANONYMOUS_PAGE_RATE=off
