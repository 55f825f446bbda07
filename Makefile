# The two set-up commands: `make` (install and build every product) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: all setup build test lint typecheck bench clean

all: build

$(STAMP): pyproject.toml setup.py constraints.txt
	@$(PYTHON) scripts/check_system.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

build: setup
	$(BIN)/towerpress build

test: setup
	@$(PYTHON) scripts/browser.py
	$(BIN)/python -m pytest
	$(BIN)/mypy
	$(BIN)/ruff check generator tests bench scripts setup.py
	$(BIN)/lint-imports --no-cache
	$(BIN)/vulture

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf build
