# One entry point: `make demo` (set up, run the main job on sample_logs/) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The same package with its hot modules compiled by mypyc (see setup.py), for benchmarks and
# the compiled test run, profile-guided with GCC (scripts/build_native.py). Rebuilt whenever a
# source file changes.
NATIVE := build/native
NATIVE_STAMP := $(NATIVE)/.built
SOURCES := $(shell find replay -name '*.py' -o -name '*.md' -o -name '*.sql') setup.py

.PHONY: venv venv-pure native install-native demo e2e screenshots check test lint imports typecheck unit unit-native unit-spark bench bench-instructions bench-openspiel samples clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

$(NATIVE_STAMP): $(STAMP) $(SOURCES) scripts/build_native.py benchmarks/pgo_training.py
	$(BIN)/python scripts/build_native.py $(NATIVE) || (cat $(NATIVE)/build.log; exit 1)
	touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)

# The compiled build installed into .venv in place of the editable pure install: a wheel built
# by mypyc against .venv's own dependencies and stubs (build/wheel/, no profile-guided pass).
# `make venv-pure` puts the editable pure install back.
WHEEL := build/wheel
install-native: $(STAMP)
	$(BIN)/pip install --quiet "setuptools>=77" wheel
	rm -rf $(WHEEL) build/lib build/lib.* build/temp.* build/bdist.*
	REPLAY_COMPILE=1 $(BIN)/pip wheel . --quiet --no-deps --no-build-isolation -w $(WHEEL)
	$(BIN)/pip install --quiet --no-deps --force-reinstall $(WHEEL)/cardgame_replay-*.whl
	cd /tmp && $(abspath $(BIN))/replay --version

venv-pure: $(STAMP)
	$(BIN)/pip install --quiet --no-deps -e .

# The dashboard on sample_logs/ until Ctrl-C (DEMO_CHECK=1: start, check, stop).
demo: $(STAMP)
	BIN=$(BIN) bash scripts/demo.sh

# The dashboard in a real headless browser (Debian's chromium, Playwright; screenshots in
# build/e2e-screenshots/).
e2e: $(STAMP)
	$(BIN)/pytest -n 0 tests/e2e

# The dashboard's screenshots in docs/screenshots/ (every page at 1400 px and at a 390 px
# phone width), taken in Debian's chromium by Playwright: scripts/screenshots.py.
screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

samples: $(STAMP)
	$(BIN)/python -m replay.corpus.samples sample_logs

lint: $(STAMP)
	$(BIN)/ruff check replay dashboards tests benchmarks scripts
	$(BIN)/ruff format --check replay dashboards tests benchmarks scripts

# The layers of the package as import-linter's contracts ([tool.importlinter] in pyproject.toml).
imports: $(STAMP)
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest-xdist: one test process per core (TEST_JOBS=0: all in one process, e.g. to debug).
TEST_JOBS ?= auto

unit: $(STAMP)
	$(BIN)/pytest -n $(TEST_JOBS)

# The whole suite again against the compiled build (same sources, checked semantics).
# importlib mode: pytest must not put the repository (and its pure package) first on sys.path.
unit-native: $(NATIVE_STAMP)
	PYTHONPATH=$(abspath $(NATIVE)):$(CURDIR) REPLAY_EXPECT_NATIVE=1 \
		$(BIN)/pytest -n $(TEST_JOBS) -p no:cacheprovider --import-mode=importlib

# The Spark engine's tests (tests/test_spark*.py, marker spark) in a process of their own: one
# Spark session, local[2]. Skipped with the reason without pyspark or Java (pip install -e '.[spark]').
unit-spark: $(STAMP)
	$(BIN)/pytest -n 0 -m spark

# The everyday tier (under a minute on an idle 2-core machine): ruff, the import contracts, then
# the tests not marked slow, pure build only. CI runs `make test`.
check: lint imports
	$(BIN)/pytest -n $(TEST_JOBS) -m 'not slow and not spark'

test: lint imports typecheck unit unit-native unit-spark

# Benchmarks run the compiled build (the figures the targets are about).
bench: $(NATIVE_STAMP)
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_games.py
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_store.py
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_audit.py
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_stats.py --store /tmp/bench_stats_store

# Hearts replay with every decision checked beside OpenSpiel's engine, the same hands in both.
# OpenSpiel is an optional extra, installed apart: $(BIN)/pip install -e '.[dev,bench]'.
bench-openspiel: $(NATIVE_STAMP)
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_openspiel.py

# Instructions per audited event (valgrind's callgrind): repeatable where seconds are not.
bench-instructions: $(NATIVE_STAMP)
	PYTHONPATH=$(NATIVE) $(BIN)/python benchmarks/bench_instructions.py

clean:
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache
