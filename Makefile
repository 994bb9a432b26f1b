# Fresh machine: `make demo` (set up + crawl the bundled demo site), `make test` (set up + whole suite).
# Both are idempotent: apt installs Debian's chromium when missing (as root), a virtualenv holds the rest.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
PYWB_VENV ?= .venv-pywb
PYWB_STAMP := $(PYWB_VENV)/.requirements-installed

.PHONY: setup chromium redis redis-up redis-down venv pywb demo test test-fast lint typecheck bench-smoke bench clean

setup: chromium redis venv pywb

chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "$$BARA_CHROMIUM_PATH" ]; then \
		echo "chromium: $$(command -v chromium || echo $$BARA_CHROMIUM_PATH)"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "Chromium is missing: install it (sudo apt-get install -y chromium) or set BARA_CHROMIUM_PATH." >&2; \
		echo "On a machine with internet, 'python -m playwright install chromium' is a fallback." >&2; exit 1; \
	fi

# Debian's redis-server: the shared frontier of `BARA_FRONTIER_URL` (tests start their own, on port 0).
redis:
	@if command -v redis-server >/dev/null 2>&1; then \
		echo "redis-server: $$(command -v redis-server)"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
	else \
		echo "redis-server is missing: install it (sudo apt-get install -y redis-server)." >&2; exit 1; \
	fi

REDIS_PORT ?= 6379
REDIS_DIR ?= $(CURDIR)/redis-data

# A local Redis for `BARA_FRONTIER_URL=redis://127.0.0.1:$(REDIS_PORT)/0` (no persistence); stop with redis-down.
redis-up: redis
	@mkdir -p $(REDIS_DIR)
	redis-server --bind 127.0.0.1 --port $(REDIS_PORT) --save '' --appendonly no --dir $(REDIS_DIR) \
		--daemonize yes --pidfile $(REDIS_DIR)/redis.pid --logfile $(REDIS_DIR)/redis.log
	@echo "BARA_FRONTIER_URL=redis://127.0.0.1:$(REDIS_PORT)/0"

redis-down:
	@if [ -f $(REDIS_DIR)/redis.pid ]; then kill $$(cat $(REDIS_DIR)/redis.pid) && rm -f $(REDIS_DIR)/redis.pid; fi

venv: $(STAMP)

# The `bench` extra (matplotlib, pinned in pyproject.toml) gives the bench its chart.
$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q -e '.[bench]'
	@touch $(STAMP)

# pywb replays the archive in tests (BARA_WARC / BARA_WACZ); its own virtualenv (requirements-pywb.txt says why).
pywb: $(PYWB_STAMP)

$(PYWB_STAMP): requirements-pywb.txt
	@test -x $(PYWB_VENV)/bin/python || $(PYTHON) -m venv $(PYWB_VENV)
	$(PYWB_VENV)/bin/python -m pip install -q -r requirements-pywb.txt
	@touch $(PYWB_STAMP)

demo: setup
	$(PY) -m bara_scrapy.demo --out out

test: setup
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not browser"

lint: setup
	$(VENV)/bin/ruff check bara_scrapy tests

typecheck: setup
	$(VENV)/bin/mypy bara_scrapy

bench-smoke: setup
	cd $(CURDIR) && $(VENV)/bin/scrapy bara-bench --sites 3 --out bench-out/smoke

bench: setup
	cd $(CURDIR) && $(VENV)/bin/scrapy bara-bench --sites 50 --out bench-out/full

clean:
	rm -rf out bench-out redis-data .pytest_cache .mypy_cache .ruff_cache
