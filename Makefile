# make verify       — everything CI runs (bounded): lint, types, tests, symbolic checks, bounded proofs
# make verify-deep  — the same with thorough budgets
# make serve        — Awari and Gothello referee servers on their default ports, live web view on port 29080
#                     (HOST=, SERVER=, RULES=, TIME=, RECORD= pass on to referee serve all)
# make test-browser — the web view's test in headless Chromium (installs Debian's chromium and Playwright)
# make mutate       — mutation testing of the engines and the spec: tests/mutation/results/mutation-report.md
# make play         — play the search player in the terminal: GAME=gothello|awari SIDE=… BUDGET=secs TIME=secs
#                     (serve and play take ENGINE=impl|spec|checked, default impl)
SHELL := /bin/bash
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all venv bwrap postgres lint typecheck test wheel-check verify verify-deep proofs planted bench mypyc mutate serve play clean browser test-browser screenshots crosscheck

all: verify

# The venv is rebuilt when pyproject.toml changes (the stamp is older than it).
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@$(MAKE) --no-print-directory bwrap postgres
	@touch $(STAMP) $(SERVE_STAMP)

# The player programs' sandbox (docs/tournaments.md, "Sandboxes"): Debian's bubblewrap,
# installed when missing and run as root; without it unshare's namespaces are used.
bwrap:
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq bubblewrap >/dev/null 2>&1; } \
		|| echo "bubblewrap not installed: player programs run in unshare's sandbox (docs/tournaments.md)"

# The arena's tests on PostgreSQL (bench/postgres.py starts a server of its own, as
# an unprivileged user): Debian's postgresql, installed when missing and run as root.
postgres:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
		|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq postgresql >/dev/null 2>&1; } \
		|| echo "postgresql not installed: the arena's PostgreSQL tests will be skipped"

# make serve needs only the runtime, the web view and uvloop (icontract, aiohttp, uvloop): a few seconds
# of installing, not the development toolchain (z3, crosshair, mypy, dask).  The dev
# install above includes it, so after make verify serving installs nothing more.
SERVE_STAMP := $(VENV)/.installed-serve
$(SERVE_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[web,fast]'
	@touch $(SERVE_STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check spec impl tests proofs examples bench
	$(VENV)/bin/ruff format --check spec impl tests proofs examples bench

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# make verify deselects the tests marked `deep` (too slow for its budget); verify-deep runs all.
# One test's budget is 25 s on an idle 2-core machine: the run ends by naming any test
# over it (tests/support/budget.py), after the 15 slowest.  JOBS processes share the
# tests (pytest-xdist) and the bounded proof steps (README, "On a fresh machine").
JOBS ?= 2
# Hash order fixed too: the strategies no longer depend on it (tests/test_determinism.py
# checks two seeds), and nothing else a test or a mutant run does may either.
export PYTHONHASHSEED ?= 0
test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -m "not deep" -n $(JOBS) --durations=15

verify: lint typecheck test wheel-check
	$(PY) -m proofs.manifest --run bounded --jobs $(JOBS)

# The package as users install it: sdist and wheel built, the wheel installed into a
# fresh venv without the development tools, a game of each kind played with it.
wheel-check: $(STAMP)
	$(PY) -m tests.wheel_check

# The thorough suite on the mypyc build, where the differential tests check the compiled
# engines and the pure-Python sources beside them (tests/support/strategies.py impl_engines);
# then the full proofs on the pure-Python build, which crosshair can trace.
verify-deep: lint typecheck browser crosscheck
	$(PY) -m impl.engines._build
	HYPOTHESIS_PROFILE=thorough $(PY) -m pytest
	$(PY) -m impl.engines._build --clean
	$(MAKE) --no-print-directory proofs
	$(MAKE) --no-print-directory planted

# Proofs and symbolic checks: proofs/manifest.py lists every step (its command, scope,
# what it trusts, its time) and runs the bounded list (in verify) or the full one (in
# proofs and verify-deep); proofs/README.md says what each proves.  A step that fails
# stops the run with a non-zero status.  The steps' independent tasks (Awari's 600
# slices, Gothello's 25 squares) run on embedded Dask clusters of 2 workers, or on the
# cluster of SCHEDULER=tcp://HOST:PORT (proofs/README.md §8.5).
SCHEDULER ?=
proofs: $(STAMP)
	$(PY) -m proofs.manifest --run full --jobs $(JOBS) --record $(if $(SCHEDULER),--scheduler $(SCHEDULER))

# Planted bugs (proofs/planted.py): each one edited into a scratch copy, the bounded
# proof steps and tests expected to catch it run against the copy; exit 1 on a miss.
planted: $(STAMP)
	$(PY) -m proofs.planted --run

# The default engine is impl (falling back to spec): the checked engine's cost at 100
# concurrent games rules it out as the default (docs/engines.md, "The checked engine").
# ENGINE=checked (or spec) chooses another.  WEB is the live web view's port.
ENGINE ?=
WEB ?= 29080

# Mutation testing, not part of verify: every mutant of impl/engines/awari.py, impl/engines/gothello.py,
# spec/awari.py and spec/gothello.py, each written into a scratch copy and judged in two
# passes (the golden corpus first, the whole kill-suite for its survivors), two at a time;
# writes tests/mutation/results/ (the record and its report; docs/mutation.md gives the times).
# MUTATE="--resume" goes on after an interruption, MUTATE="--files F ..." for some files,
# MUTATE="--per-file N" for a sample, MUTATE="--rerun-survivors" after new tests.
MUTATE ?=
mutate: $(STAMP)
	$(PY) -m tests.mutation $(MUTATE)

# make serve HOST=127.0.0.1 SERVER="0 1" RULES=olympiad-1994 TIME=300 RECORD=games/ ENGINE=checked
HOST ?=
SERVER ?=
RULES ?=
TIME ?=
RECORD ?=
serve: $(SERVE_STAMP)
	$(VENV)/bin/referee serve all --forever --web $(WEB) $(if $(ENGINE),--engine $(ENGINE)) \
		$(if $(HOST),--host $(HOST) --web-host $(HOST)) $(if $(SERVER),--server $(SERVER)) \
		$(if $(RULES),--rules '$(RULES)') $(if $(TIME),--time $(TIME)) $(if $(RECORD),--record '$(RECORD)')

# The browser test's needs: Debian's chromium and chromedriver (apt-get, as root or
# through sudo; skipped when present) and Playwright, which drives that chromium and
# never downloads a browser of its own.  verify-deep runs the test; verify does not
# (docs/web.md, "Tests", says why).
CHROMIUM := /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
browser: $(STAMP)
	@test -x $(CHROMIUM) -a -x /usr/bin/chromedriver || { $(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }
	@$(PY) -c 'import playwright' 2>/dev/null || $(PY) -m pip install --quiet -e '.[browser]'

# OpenSpiel (the crosscheck extra: numpy, scipy) for the cross-check of the abapa rule
# set; verify-deep installs it, verify does not (docs/rules.md, "OpenSpiel as an outside oracle").
crosscheck: $(STAMP)
	@$(PY) -c 'import pyspiel' 2>/dev/null || $(PY) -m pip install --quiet -e '.[crosscheck]'

BROWSER_TESTS = tests/web/test_browser.py tests/web/test_story_browser.py tests/web/test_layout.py tests/web/test_arena_browser.py

test-browser: browser
	$(PY) -m pytest $(BROWSER_TESTS)

# The screenshots the docs show, taken by the browser tests: the list, live games,
# a tournament (wide and on a phone), a finished game (rule set, final score), a record valued by
# an endgame table, a phone's width,
# the TV page at 1280×720 (tests/web/test_layout.py, which also measures the layouts).
screenshots: browser
	WEB_SCREENSHOTS=docs $(PY) -m pytest $(BROWSER_TESTS)

# A local server and the search player; you move first unless SIDE says otherwise (? for a random side).
GAME ?= gothello
play: $(SERVE_STAMP)
	$(VENV)/bin/referee play --game $(GAME) $(if $(SIDE),--side '$(SIDE)') $(if $(BUDGET),--budget $(BUDGET)) \
		$(if $(TIME),--time $(TIME)) $(if $(ENGINE),--engine $(ENGINE))

# Optional: compile the fast engines with mypyc (the pure-Python sources stay the fallback).
mypyc: $(STAMP)
	$(PY) -m impl.engines._build

# The engine bench times the mypyc build and the pure-Python sources, so it builds first.
# BENCH_BASE: the earlier commit bench.compare measures this checkout against, interleaved.
BENCH_BASE ?= c21d8d4
bench: mypyc
	$(PY) -m bench.compare $(BENCH_BASE)
	$(PY) -m bench.engines
	$(PY) -m bench.server
	$(PY) -m bench.flood
	$(PY) -m bench.web
	$(PY) -m bench.web --table clock
	$(PY) -m bench.tablebase
	$(PY) -m bench.adjudication
	$(PY) -m bench.arena

clean:
	-test -x $(PY) && $(PY) -m impl.engines._build --clean
	rm -rf $(VENV) build .hypothesis .mypy_cache .ruff_cache
