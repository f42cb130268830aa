# nine-analyzer: every target builds its own environment from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench tables clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,plot,dask]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/nine odds --profile punto-banco --decks 8

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests
	$(BIN)/mypy --strict analyzer

bench: $(STAMP)
	$(BIN)/python -m benchmarks

tables: $(STAMP)
	$(BIN)/nine tables --out tables/

clean:
	rm -rf $(VENV) build *.egg-info
