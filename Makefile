# One entry point: `make demo` (set up, run the main job on sample_logs/) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo test lint typecheck unit bench samples clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	BIN=$(BIN) bash scripts/demo.sh

samples: $(STAMP)
	$(BIN)/python -m replay.samples sample_logs

lint: $(STAMP)
	$(BIN)/ruff check replay tests benchmarks
	$(BIN)/ruff format --check replay tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_games.py
	$(BIN)/python benchmarks/bench_store.py
	$(BIN)/python benchmarks/bench_audit.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
