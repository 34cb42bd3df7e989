# make verify       — everything CI runs (bounded): lint, types, tests, symbolic checks, bounded proofs
# make verify-deep  — the same with thorough budgets
# make serve        — Awari and Gothello referee servers on their default ports
# make play         — play the search player in the terminal: GAME=gothello|awari SIDE=… BUDGET=secs TIME=secs
SHELL := /bin/bash
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all venv lint typecheck test verify verify-deep proofs bench mypyc serve play clean

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
verify-deep: lint typecheck
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
SPEC_CONTRACTS=0 $(PY) -m proofs.awari.refinement --bounded
SPEC_CONTRACTS=0 $(PY) -m proofs.gothello.refinement --bounded
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
	SPEC_CONTRACTS=0 $(PY) -m proofs.awari.refinement
	SPEC_CONTRACTS=0 $(PY) -m proofs.gothello.refinement

serve: $(STAMP)
	$(VENV)/bin/referee serve all --forever

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

clean:
	-test -x $(PY) && $(PY) -m impl._build --clean
	rm -rf $(VENV) build .hypothesis .mypy_cache .ruff_cache
