# gamenight — `make play` plays, `make test` checks everything.
# Both create .venv from the pinned lock file when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint layers typecheck pytest bench lock clean ensure-tmux

play: $(STAMP)
	$(BIN)/gamenight

test: $(STAMP) ensure-tmux lint layers typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

layers: $(STAMP)
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

# The hot-seat test drives a real terminal (tmux). Installed when missing if we are
# root on Debian/Ubuntu; otherwise `make test` stops and says so.
ensure-tmux:
	@command -v tmux >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing tmux (needed by the hot-seat terminal test)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }; \
	  else \
	    echo "make test needs tmux for the hot-seat terminal test: install it (e.g. sudo apt-get install tmux)" >&2; \
	    exit 1; \
	  fi; }

pytest: $(STAMP)
	$(BIN)/pytest -n 2

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
	$(BIN)/pip-compile --quiet --extra dev --extra ray --generate-hashes --strip-extras \
		--output-file requirements.lock pyproject.toml

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
