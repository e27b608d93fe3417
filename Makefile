# Everything runs in a local virtualenv (.venv) made from pyproject.toml; only Python 3.11+
# and make are needed. `make` alone makes it (the README's quick path); `make tournament` and
# `make test` are the README's two commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: tournament test test-cluster lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)
	@echo "hexlog is installed in $(BIN)/: run 'source $(BIN)/activate' to put it on your PATH"

# A short tournament of the shipped bots on the embedded Valkey (./.hexlog), then the table.
tournament: $(STAMP)
	$(BIN)/hexlog tournament --bots random,heuristic --games 16 --seed readme

test: $(STAMP)
	scripts/system-packages
	$(BIN)/pytest

# Every test folder that uses the session's server, again on an embedded 3-master Valkey
# Cluster (every multi-key call in one slot; consumers read per partition). The other folders
# use no server, or start their own (`hexlog` commands; tests/cli runs `up --cluster`);
# tests/deploy/test_cluster_pass.py fails when a test on the session's server is left out.
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
	rm -rf $(VENV) .hexlog
