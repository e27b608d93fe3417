# Everything runs in a local virtualenv (.venv) made from pyproject.toml; only Python 3.11+
# and make are needed. `make` alone makes it (the README's quick path); `make tournament` and
# `make test` are the README's two commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: tournament test test-cluster lint bench clean engine interpreted test-compiled \
	test-compiled-rest test-compiled-slow test-compiled-failover newest constraints

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	$(BIN)/python scripts/build_engine.py
	touch $(STAMP)
	@echo "hexlog is installed in $(BIN)/: run 'source $(BIN)/activate' to put it on your PATH"

# A short tournament of the shipped bots on the embedded Valkey (./.hexlog), then the table.
tournament: $(STAMP)
	$(BIN)/hexlog tournament --bots random,heuristic --games 16 --seed readme

# The suite runs on every core (pytest-xdist, a file per worker at a time, so a module's
# browser or homeserver starts once); `make test WORKERS=0` runs it in this process alone.
WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(os.cpu_count() or 1, 8))")
XDIST = $(if $(filter 0,$(WORKERS)),,-n $(WORKERS) --dist loadfile)

test: $(STAMP)
	scripts/system-packages
	$(BIN)/pytest $(XDIST)

# The engine compiled with mypyc (the install's default where a C compiler is there: 2-3 minutes
# on 2 cores; HEXLOG_COMPILED=0 skips it; a build that does not import and play is discarded), or
# back to the Python source. A compiled build older than the source is not used (`make engine`
# rebuilds it). Figures: benchmarks/compiled.md.
engine: $(STAMP)
	$(BIN)/python scripts/build_engine.py

interpreted: $(STAMP)
	$(BIN)/python scripts/build_engine.py --clean

# CI's compiled-engine pass (.ci/run, after the suite, beside the cluster pass): the tests
# (rules, golden logs, the frozen corpus and the audit, variants, scenarios, hooks, bots, the
# bot protocol and its schemas, event upcasting, the RL environments) against the compiled
# engine, and the test that both builds play the same games event for event.
# `test-compiled-rest` and the cluster pass
# run the rest of the suite on it (tests/deploy/test_compiled_passes.py checks that together
# they leave no test folder out). The slow sweeps (hundreds to thousands of random
# games per variant, pair and scenario) are left to `test-compiled-slow`, which CI runs in the
# cluster pass's lane, the shorter one (`make test-compiled SLOW=1` runs all in one). One process, in file order: the order
# this pass has been proven in (under xdist the same-games test once played a toy module that
# tests/hooks had registered in its worker; it now plays the shipped modules only).
ENGINE_TESTS := tests/engine tests/audit tests/variants tests/scenarios tests/hooks tests/bots \
	tests/protocol tests/events tests/rl
# BUILT=1: the engine was just compiled (CI builds it beside the first pass), do not build again.
test-compiled: $(STAMP)
	$(if $(BUILT),,$(BIN)/python scripts/build_engine.py --require)
	HEXLOG_REQUIRE_COMPILED=1 $(BIN)/pytest $(ENGINE_TESTS) $(if $(SLOW),,-m "not slow")

test-compiled-slow: $(STAMP)
	HEXLOG_REQUIRE_COMPILED=1 $(BIN)/pytest $(ENGINE_TESTS) -m slow

# The rest of the suite on the compiled engine (CI runs it after test-compiled, beside the
# cluster pass, which runs the folders on the session's server compiled): the folders that use
# no server or start their own, then the tests about the single embedded server itself that
# the cluster pass deselects, and the benchmark folder (about 1 min). The failover folder
# (replicated sets, Sentinel: about 4 min) is `test-compiled-failover`, which CI runs after the
# slow sweeps in the cluster pass's lane, so that the two lanes end at about the same time.
COMPILED_REST := tests/cli tests/render tests/runtime tests/docs tests/deploy tests/ladder \
	tests/benchmarks
test-compiled-rest: $(STAMP)
	HEXLOG_REQUIRE_COMPILED=1 $(BIN)/pytest $(COMPILED_REST)
	HEXLOG_REQUIRE_COMPILED=1 $(BIN)/pytest -m single_server tests/store tests/service \
		tests/security tests/tournament tests/gateway tests/chat tests/protocol

COMPILED_FAILOVER := tests/failover
test-compiled-failover: $(STAMP)
	HEXLOG_REQUIRE_COMPILED=1 $(BIN)/pytest $(COMPILED_FAILOVER)

# Every test folder that uses the session's server, again on an embedded 3-master Valkey
# Cluster (every multi-key call in one slot; consumers read per partition). The other folders
# use no server, or start their own (`hexlog` commands; tests/cli runs `up --cluster`);
# tests/deploy/test_cluster_pass.py fails when a test on the session's server is left out.
# One process: each worker would start a cluster of its own on free TCP ports, and two picking
# ports at once can collide.
test-cluster: $(STAMP)
	$(BIN)/pytest --cluster 3 tests/store tests/service tests/security tests/tournament \
		tests/gateway tests/chat tests/protocol

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/hexlog bench engine --games 200
	$(BIN)/hexlog bench e2e --games 32 --concurrency 32

clean:
	rm -rf $(VENV) .hexlog build
	-python3 scripts/build_engine.py --clean

# The newest releases of every dependency (pyproject.toml's ranges, no constraints) in a venv
# of their own, and the fast tests on them: what `make constraints` would pin next.
newest:
	$(PYTHON) -m venv .venv-newest
	.venv-newest/bin/pip install --quiet --upgrade pip
	.venv-newest/bin/pip install --quiet --upgrade -e '.[dev]'
	.venv-newest/bin/pip list --outdated --format=columns || true
	HEXLOG_COMPILED=0 .venv-newest/bin/pytest $(XDIST) -m "not slow"

# constraints.txt from what .venv holds now (after the tests passed on it).
constraints: $(STAMP)
	{ sed -n '/^#/p' constraints.txt; $(BIN)/pip freeze --exclude-editable | grep -v '^hexlog'; } \
		> constraints.txt.new && mv constraints.txt.new constraints.txt
