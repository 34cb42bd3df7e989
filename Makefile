# make verify       — everything CI runs (bounded): lint, types, tests, symbolic checks, bounded proofs
# make verify-deep  — the same with thorough budgets
# make serve        — Awari and Gothello referee servers on their default ports, live web view on port 29080
# make test-browser — the web view's test in headless Chromium (installs Debian's chromium and Playwright)
# make play         — play the search player in the terminal: GAME=gothello|awari SIDE=… BUDGET=secs TIME=secs
SHELL := /bin/bash
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all venv lint typecheck test verify verify-deep proofs bench mypyc serve play clean browser test-browser screenshots

all: verify

# The venv is rebuilt when pyproject.toml changes (the stamp is older than it).
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check spec impl tests proofs
	$(VENV)/bin/ruff format --check spec impl tests proofs

typecheck: $(STAMP)
	$(VENV)/bin/mypy

test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest

verify: lint typecheck test
	$(PROOFS_BOUNDED)

# The thorough suite on the mypyc build, where the differential tests check the compiled
# engines and the pure-Python sources beside them (tests/strategies.py impl_engines);
# then the full proofs on the pure-Python build, which crosshair can trace.
verify-deep: lint typecheck browser
	$(PY) -m impl._build
	HYPOTHESIS_PROFILE=thorough $(PY) -m pytest
	$(PY) -m impl._build --clean
	$(MAKE) --no-print-directory proofs

# Proofs and symbolic checks (proofs/README.md says what each proves, its scope and
# its time).  Every step exits non-zero on failure.  SPEC_CONTRACTS=0 runs the spec
# without its contracts for the large exhaustive scopes; a smaller scope runs with
# them on.  The bounded set runs in verify, the full set in proofs and verify-deep.
define PROOFS_BOUNDED
$(PY) -m proofs.run_crosshair
$(PY) -m proofs.run_diffbehavior
$(PY) -m proofs.gothello_proofs
$(PY) -m proofs.awari_proofs
SPEC_CONTRACTS=0 $(PY) -m proofs.awari_exhaustive --stones 3
$(PY) -m proofs.awari_exhaustive --stones 2
SPEC_CONTRACTS=0 $(PY) -m proofs.equivalence awari --stones 2
$(PY) -m proofs.equivalence awari --stones 1
$(PY) -m proofs.equivalence gothello --plies 2
endef

proofs: $(STAMP)
	$(PY) -m proofs.run_crosshair --deep
	$(PY) -m proofs.run_diffbehavior --deep
	$(PY) -m proofs.run_hypothesis_crosshair
	$(PY) -m proofs.gothello_proofs
	$(PY) -m proofs.awari_proofs
	SPEC_CONTRACTS=0 $(PY) -m proofs.awari_exhaustive --stones 4
	SPEC_CONTRACTS=0 $(PY) -m proofs.awari_exhaustive --stones 2 --all-splits
	$(PY) -m proofs.awari_exhaustive --stones 2
	SPEC_CONTRACTS=0 $(PY) -m proofs.equivalence awari --stones 4
	SPEC_CONTRACTS=0 $(PY) -m proofs.equivalence gothello --plies 3
	$(PY) -m proofs.equivalence awari --stones 2
	$(PY) -m proofs.equivalence gothello --plies 2

WEB ?= 29080
serve: $(STAMP)
	$(VENV)/bin/referee serve all --forever --web $(WEB)

# The browser test's needs: Debian's chromium and chromedriver (apt-get, as root or
# through sudo; skipped when present) and Playwright, which drives that chromium and
# never downloads a browser of its own.  verify-deep runs the test; verify does not
# (README, "The live web view", says why).
CHROMIUM := /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
browser: $(STAMP)
	@test -x $(CHROMIUM) -a -x /usr/bin/chromedriver || { $(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }
	@$(PY) -c 'import playwright' 2>/dev/null || $(PY) -m pip install --quiet -e '.[browser]'

test-browser: browser
	$(PY) -m pytest tests/test_web_browser.py

# The screenshots the README shows, taken by the browser test.
screenshots: browser
	WEB_SCREENSHOTS=docs $(PY) -m pytest tests/test_web_browser.py

# A local server and the search player; you move first unless SIDE says otherwise (? for a random side).
GAME ?= gothello
play: $(STAMP)
	$(VENV)/bin/referee play --game $(GAME) $(if $(SIDE),--side '$(SIDE)') $(if $(BUDGET),--budget $(BUDGET)) \
		$(if $(TIME),--time $(TIME))

# Optional: compile the fast engines with mypyc (the pure-Python sources stay the fallback).
mypyc: $(STAMP)
	$(PY) -m impl._build

# The engine bench times the mypyc build and the pure-Python sources, so it builds first.
bench: mypyc
	$(PY) -m impl.bench_engines
	$(PY) -m impl.server.bench
	$(PY) -m impl.web.bench

clean:
	-test -x $(PY) && $(PY) -m impl._build --clean
	rm -rf $(VENV) build .hypothesis .mypy_cache .ruff_cache
