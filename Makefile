# gamenight — `make serve` plays online, `make play` in the terminal, `make test` checks everything.
# Each creates .venv from a pinned lock when it is missing: `play` and `serve` the core
# (requirements/core.lock), everything else every extra and the tools (requirements/dev.lock).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
CORE   := $(VENV)/.installed-core
STAMP  := $(VENV)/.installed

.PHONY: play serve test lint layers typecheck pytest system-deps bench lock messages clean

play: $(CORE)
	$(BIN)/gamenight

# The online server on the embedded default (SQLite in the user data directory).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(CORE)
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
	$(BIN)/pytest -n 2 --durations=40

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

# Python 3.11 or newer, checked when a venv is to be built, before anything is created:
# one line (make's own "*** ... Stop."), exit 2. Expanded with the recipe, so a venv
# already built never asks for $(PYTHON).
PYTHON_OK = $(if $(filter ok,$(shell $(PYTHON) -c 'import sys; print("ok" if sys.version_info >= (3, 11) else "old")' 2>/dev/null)),,$(error gamenight needs Python 3.11 or newer, and PYTHON=$(PYTHON) is $(or $(shell command -v $(PYTHON) >/dev/null && $(PYTHON) --version 2>&1 | head -n 1),not found): run make PYTHON=python3.11 (or newer) $(or $(MAKECMDGOALS),play)))

# The venv from LOCK ($(1)), trusted by its stamps ($(2)). A venv left without a stamp
# (a build that failed or was interrupted) is removed first; the stamps go before the
# install and come back only after it; a failed install removes the venv. So the next
# run never trusts a half-built venv: it starts again from scratch. The dev lock holds
# the core's, so its venv stamps both.
define build_venv
	$(PYTHON_OK)
	@if [ -e $(VENV) ] && [ ! -e $(CORE) ] && [ ! -e $(STAMP) ]; then \
	  echo "removing $(VENV): no finished build stamped it"; rm -rf $(VENV); fi
	rm -f $(CORE) $(STAMP)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }
	@$(BIN)/python -m pip install --quiet --upgrade pip || { rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --require-hashes -r $(1) || { rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --no-deps -e . || { rm -rf $(VENV); exit 1; }
	touch $(2)
endef

$(CORE): requirements/core.lock pyproject.toml
	$(call build_venv,requirements/core.lock,$(CORE))

$(STAMP): requirements/dev.lock pyproject.toml
	$(call build_venv,requirements/dev.lock,$(CORE) $(STAMP))

# Re-pin every dependency from PyPI alone (no local index or wheel folder in the locks)
# with pip-tools in a scratch venv: the dev lock (every extra and the tools), then the
# core's, seeded with the dev lock's versions so the two agree. pip-compile adds the
# project itself (the dev extra names gamenight[...]) as a local path: removed.
PYPI_ONLY := env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL PIP_CONFIG_FILE=/dev/null
lock:
	$(PYTHON_OK)
	@tools=$$(mktemp -d) && trap 'rm -rf "$$tools"' EXIT && \
	$(PYTHON) -m venv "$$tools" && $(PYPI_ONLY) "$$tools/bin/pip" install --quiet pip-tools && \
	compile="$(PYPI_ONLY) $$tools/bin/pip-compile --quiet --generate-hashes --strip-extras \
	  --allow-unsafe --no-emit-index-url --no-emit-find-links" && \
	$$compile --extra dev --output-file requirements/dev.lock pyproject.toml && \
	sed -i '/^# WARNING: pip install will require/,/^    # via gamenight (pyproject.toml)$$/d' \
	  requirements/dev.lock && \
	cp requirements/dev.lock requirements/core.lock && \
	$$compile --output-file requirements/core.lock pyproject.toml && \
	! grep -n -e '^-' -e 'file:' -e ' @ ' requirements/core.lock requirements/dev.lock

# The gettext catalogues (docs/i18n.md): extract the marked strings into the template,
# merge it into each language's .po (new entries untranslated, gone ones dropped), then
# compile the .mo files that are committed beside them.
LOCALE   := src/gamenight/locale
KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k pgettext:1c,2 -k npgettext:1c,2,3 -k N_ -k N_p:1c,2 \
            -k IllegalActionError -k StaleActionError -k OptionsError -k Term:1c,2 \
            -k RecordError -k RecordBusyError -k RecordMovedError -k NoReviewError \
            -k RecordWriteError -k SaveDeclinedError -k BuildNeededError -k WinTableNeededError \
            -k FileProblem -k DeckError -k Phrase -k ValueTableError -k ValueTableMissingError \
            -k ValueTableCorruptError -k ValueTableStaleError -k LanguageError -k WinTableCorruptError
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-default-keywords --no-location \
		--sort-output --project gamenight --version 0.1 -o $(LOCALE)/gamenight.pot .
	$(BIN)/pybabel update -i $(LOCALE)/gamenight.pot -d $(LOCALE) -D gamenight -w 100 \
		--ignore-obsolete --no-fuzzy-matching
	$(BIN)/pybabel compile -d $(LOCALE) -D gamenight --statistics

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
