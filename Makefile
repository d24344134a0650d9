# gamenight — `make play` plays, `make test` checks everything.
# Both create .venv from the pinned lock file when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play serve test lint layers typecheck pytest system-deps system-web bench lock clean

play: $(STAMP)
	$(BIN)/gamenight

# The online server on the embedded default (SQLite in the user data directory).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(STAMP)
	$(BIN)/gamenight serve --host $(HOST) --port $(PORT)

test: $(STAMP) lint layers typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

layers: $(STAMP)
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system-deps system-web
	$(BIN)/pytest -n 2

# System packages the tests need: PostgreSQL (server tests). Installed with apt-get
# when missing and running as root on Debian; otherwise says what to install and fails.
system-deps:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	    echo "installing PostgreSQL for the server tests (apt-get install postgresql)"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql || exit 1; \
	  else \
	    echo "make test needs PostgreSQL (initdb and pg_ctl): on Debian/Ubuntu run"; \
	    echo "  sudo apt-get install postgresql"; \
	    echo "elsewhere install PostgreSQL 13 or newer and put its bin directory on PATH"; \
	    exit 1; \
	  fi; \
	fi

# Debian's chromium for the browser tests (tests/web, Playwright drives it; Playwright's own
# browser download is not used). Same policy: apt-get as root on Debian, else say and fail.
CHROMIUM ?= /usr/bin/chromium
system-web:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	    echo "installing chromium for the browser tests (apt-get install chromium)"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || exit 1; \
	  else \
	    echo "make test needs Debian's chromium at $(CHROMIUM) for the browser tests: run"; \
	    echo "  sudo apt-get install chromium"; \
	    echo "or point CHROMIUM=/path/to/chromium (and GAMENIGHT_CHROMIUM for pytest) at one"; \
	    exit 1; \
	  fi; \
	fi

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Re-pin every dependency (needs pip-tools in the venv).
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --extra dev --generate-hashes --strip-extras \
		--output-file requirements.lock pyproject.toml

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
