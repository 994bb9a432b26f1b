# Fresh machine: `make demo` (set up + crawl the bundled demo site), `make test` (set up + whole suite).
# Both are idempotent: apt installs Debian's chromium when missing (as root), a virtualenv holds the rest.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: setup chromium venv demo test test-fast lint typecheck bench-smoke bench clean

setup: chromium venv

chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "$$BARA_CHROMIUM_PATH" ]; then \
		echo "chromium: $$(command -v chromium || echo $$BARA_CHROMIUM_PATH)"; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "Chromium is missing: install it (sudo apt-get install -y chromium) or set BARA_CHROMIUM_PATH." >&2; \
		echo "On a machine with internet, 'python -m playwright install chromium' is a fallback." >&2; exit 1; \
	fi

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	@touch $(STAMP)

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
	rm -rf out bench-out .pytest_cache .mypy_cache .ruff_cache
