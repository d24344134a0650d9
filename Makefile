# gamenight — `make serve` plays online, `make play` in the terminal, `make test` checks everything.
# Each creates .venv from the pinned lock file when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play serve test lint layers typecheck pytest system-deps bench lock messages clean

play: $(STAMP)
	$(BIN)/gamenight

# The online server on the embedded default (SQLite in the user data directory).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(STAMP)
	$(BIN)/gamenight serve --host $(HOST) --port $(PORT)

test: $(STAMP) system-deps lint layers typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

layers: $(STAMP)
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system-deps
	$(BIN)/pytest -n 2

# System packages the tests drive for real: tmux (hot-seat terminal test), PostgreSQL
# (server storage tests) and Chromium (browser tests). Installed with apt-get when
# missing and running as root on Debian; otherwise `make test` says what to install
# and fails. It never skips. With CI=true (as root on Debian) chromium and postgresql
# are also brought up to Debian's current versions first, so CI sees what a fresh
# machine sees.
system-deps:
	@if [ "$${CI:-}" = true ] && [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  echo "CI: bringing chromium and postgresql up to Debian's current versions"; \
	  apt-get update -q >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --only-upgrade chromium postgresql \
	    >/dev/null || exit 1; \
	fi
	@missing=""; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	{ command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } \
	  || missing="$$missing postgresql"; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	command -v caddy >/dev/null 2>&1 || missing="$$missing caddy"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	    echo "installing system packages for the tests:$$missing"; \
	    apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null || exit 1; \
	  else \
	    echo "make test needs these system packages:$$missing"; \
	    echo "  on Debian/Ubuntu: sudo apt-get install$$missing"; \
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
	$(BIN)/pip-compile --quiet --extra dev --extra rl --extra ray --generate-hashes --strip-extras \
		--output-file requirements.lock pyproject.toml

# The gettext catalogues (docs/i18n.md): extract the marked strings into the template,
# merge it into each language's .po (new entries untranslated, gone ones dropped), then
# compile the .mo files that are committed beside them.
LOCALE   := src/gamenight/locale
KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k pgettext:1c,2 -k npgettext:1c,2,3 -k N_ -k N_p:1c,2 \
            -k IllegalActionError -k StaleActionError -k OptionsError -k Term:1c,2
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-default-keywords --no-location \
		--sort-output --project gamenight --version 0.1 -o $(LOCALE)/gamenight.pot .
	$(BIN)/pybabel update -i $(LOCALE)/gamenight.pot -d $(LOCALE) -D gamenight -w 100 \
		--ignore-obsolete --no-fuzzy-matching
	$(BIN)/pybabel compile -d $(LOCALE) -D gamenight --statistics

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
