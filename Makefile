# Two commands for a fresh machine with Python 3.11+ (no Redis or PostgreSQL needed):
#   make run    install, migrate, seed demo data, run web + Celery worker + beat
#               (PORT=8001 make run for another port)
#   make test   install and run the whole test suite
# and two for the local data under var/:
#   make demo-logins   new passwords for the demo organiser and players (printed)
#   make reset         delete the local database, Redis and demo log-ins (asks; YES=1 does not)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := var/.installed
PORT ?= 8000
# Where the local servers keep their data (make reset deletes it).
VAR ?= var

.PHONY: run test lint format bench install messages clean-var reset demo-logins

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Rosbi needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@# pip compiles the bytecode of what it installs, but not of an editable checkout.
	$(BIN)/python -m compileall -q games rosbi_platform tournaments ratings
	@mkdir -p var && touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	exec $(BIN)/python manage.py runplatform --port $(PORT)

# The browser tests drive Debian's Chromium (Playwright's own browser download is not
# reachable everywhere): installed here when missing, or point CHROMIUM_PATH at another one.
CHROMIUM_PATH ?= /usr/bin/chromium
export CHROMIUM_PATH
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM_PATH):
	@command -v apt-get >/dev/null || { echo "The browser tests need Chromium: install it and set CHROMIUM_PATH"; exit 1; }
	@echo "Installing Debian's chromium for the browser tests"
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

test: $(STAMP) $(CHROMIUM_PATH)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .

# Quick benchmarks that print their figures; add yours to BENCHES (longer studies such as
# bench/bots.py or bench/ratings/evaluate.py are run by hand, see their docstrings).
BENCHES ?= bench/platform_requests.py bench/engine.py bench/seating.py bench/standings.py \
	bench/ratings/speed.py
bench: $(STAMP)
	@set -e; for script in $(BENCHES); do \
		echo "== $$script"; $(BIN)/python $$script; \
	done

# Re-extract and compile translations (needs GNU gettext; the .mo files are committed).
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l de -l en -i '.venv/*' -i 'var/*' -i 'bench/*' -i 'tests/*'
	$(BIN)/python manage.py compilemessages -l de -l en -i '.venv/*' -i 'var/*'

clean-var:
	rm -rf var/staticfiles var/.installed

demo-logins: $(STAMP)
	$(BIN)/python manage.py seed_demo --reset-passwords

# Deletes every local datum: the embedded PostgreSQL and Redis data, the demo log-ins and the
# generated secret key (the virtualenv and collected static files stay). Refused while the
# embedded servers run: stop `make run` (or a test run) first.
reset:
	@for pidfile in $(VAR)/postgres/postmaster.pid $(VAR)/redis/redis.pid; do \
		if [ -f "$$pidfile" ] && kill -0 "$$(head -n 1 "$$pidfile")" 2>/dev/null; then \
			echo "A local server still runs ($$pidfile): stop make run first. Nothing deleted."; \
			exit 1; \
		fi; \
	done
	@if [ "$(YES)" != "1" ]; then \
		printf 'Delete the local database, Redis data and demo log-ins in $(VAR)/? [y/N] '; \
		read answer; \
		case "$$answer" in y|Y|yes|YES) ;; *) echo "Nothing deleted."; exit 1;; esac; \
	fi
	rm -rf $(VAR)/postgres $(VAR)/redis $(VAR)/postgres.lock \
		$(VAR)/demo-logins.json $(VAR)/secret_key
	@echo "Local data deleted: the next make run starts with a fresh database and new demo log-ins."
