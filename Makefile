# nine-analyzer: every target builds its own environment from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.docs-installed

CHROMIUM_FLAGS := --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars

.PHONY: run test lint docs bench tables certify check-certificates screenshot browser pdftools clean

# uv (Astral's installer, from PyPI into the venv) resolves and installs the project
# editable from pyproject.toml in about 15 s where pip takes about 33 s; where uv cannot be
# installed, the venv's own pip (22 or later with Python 3.11) does it. Its files are copied,
# not linked from uv's cache: linked shared libraries added about 40 MB to a verify run's
# peak resident set (issue 24's bound is 300 MB a worker). Neither byte-compiles
# (pip would, on one core); compileall does it on every core (packages' own test folders
# left out: nothing here imports them).
# (the extras in a variable: a comma in $(call ...)'s text would split its argument)
INSTALL = ($(BIN)/pip install --quiet uv \
	   && $(BIN)/uv pip install --quiet --link-mode=copy --python $(BIN)/python -e '.[$(1)]') \
	  || $(BIN)/pip install --quiet --no-compile -e '.[$(1)]'
EXTRAS := dev,plot,dask,pdf

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(call INSTALL,$(EXTRAS))
	$(BIN)/python -m compileall -q -j 0 -x '/tests/' $(VENV)/lib >/dev/null || true  # a speed-up only
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/nine odds --profile punto-banco --decks 8

# --dist worksteal: a worker that runs out of tests takes the other's pending ones, so the
# long tests (the publication, the label test) do not leave one core idle at the end.
# The project's own modules byte-compiled first, on every core: where PYTHONDONTWRITEBYTECODE
# is set (as on our build machine) every test worker and every process a test starts compiled
# them from source again (fresh clones, load 1.5-2.3: 342 s of CPU without, 308 s with).
test: $(STAMP) browser pdftools
	$(BIN)/python -m compileall -q -j 0 analyzer >/dev/null
	$(BIN)/python -m pytest -n auto --dist worksteal

# Headless Chromium for tests/present/test_browser.py: installed when missing where this is
# root with apt-get; anywhere else (or offline) that test is skipped and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] \
	  || ! command -v apt-get >/dev/null 2>&1 \
	  || (export DEBIAN_FRONTEND=noninteractive; \
	      timeout 300 apt-get install -y chromium >/dev/null 2>&1 \
	      || (timeout 300 apt-get update >/dev/null 2>&1 \
	          && timeout 300 apt-get install -y chromium >/dev/null 2>&1)) \
	  || echo "make: chromium could not be installed; the browser test will be skipped" >&2

# poppler's pdftoppm and pdftotext for tests/present/test_pdf.py (page 1 rendered to PNG):
# installed when missing where this is root with apt-get; elsewhere that test is skipped.
pdftools:
	@command -v pdftoppm >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] \
	  || ! command -v apt-get >/dev/null 2>&1 \
	  || (export DEBIAN_FRONTEND=noninteractive; \
	      timeout 300 apt-get install -y poppler-utils >/dev/null 2>&1 \
	      || (timeout 300 apt-get update >/dev/null 2>&1 \
	          && timeout 300 apt-get install -y poppler-utils >/dev/null 2>&1)) \
	  || echo "make: poppler-utils could not be installed; the page-1 PDF test will be skipped" >&2

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests benchmarks
	$(BIN)/mypy --strict analyzer

# The Python API reference (docs/api/, Sphinx autodoc of what import analyzer exports) in
# build/docs/index.html; any warning is an error. Its examples are the modules' doctests,
# which make test runs.
$(DOCS_STAMP): $(STAMP)
	$(call INSTALL,docs)
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -b html docs/api build/docs

# Cold starts are compared with the package at $(BEFORE) (a git revision), timed in the same run.
BEFORE ?= main
bench: $(STAMP)
	BENCH_BEFORE=$(BEFORE) $(BIN)/python -m benchmarks

# Certified one-deck equilibria of home Lucky 9 (issue 21): each table solved with exact card
# removal (minutes; run it niced on a shared machine), its certificate written to
# analyzer/choice/table/stored/certificates/; nine tables and make test check them again.
# From 6 people (make certify CERTIFY_PEOPLE="6 7") the infinite deck's play is improved
# subgame by subgame and its exact epsilon written (not an equilibrium); the subgames run on
# CERTIFY_FLAGS' Dask cluster (local: 2 workers here; or --dask ADDRESS of a real cluster).
# Measured at 6 people on 2 cores shared at load 9-19: the exact evaluation of the infinite
# deck's play (--infinite-play, by total) 698 s wall, 186 s CPU; the improved play (by total,
# --jobs 2, nice 5, load 0.6-3) 834 s wall, 1,177 s CPU, epsilon 4.20e-6; by cards
# (nice -n 10 nine certify --people 6 --by cards --jobs 2, load 2.2-5.5) 1,049 s wall, 601 s
# CPU, 4.06 GB largest resident set, epsilon 4.13e-6 (README). A cut run resumes: finished
# subgames are kept in <certificate>.work/ and reused by the same command. 7 people by total
# (nice -n 10, --jobs 2, load 3.5-8.9, then resumed with nice -n 19 --jobs 1 at load 2):
# about 42 CPU-minutes in all (20 for 246 subgames, 21 for the one of six live seats), 7.5 GB
# in one process, epsilon 7.50e-7 (README). From 8 people the subgames of 6+ live seats are
# evaluated in floats with a rigorous rounding bound (--float-from; the file says "epsilon <=",
# never certified); 8 people ship the improved play evaluated that way (--iterations 10
# --float-from 5 --jobs 2: 89-93 minutes wall each on 2 cores, 5.1-10.1 GB; README), 9 people
# the bank's best-reply step (--bank-reply 7/8 --float-from 5 --jobs 2: by cards 34 minutes,
# 11.3 GB; by total 37 minutes, 6.7 GB).
CERTIFY_PEOPLE ?= 4 5
CERTIFY_FLAGS ?= --dask local --jobs 2
certify: $(STAMP)
	$(BIN)/nine certify $(foreach p,$(CERTIFY_PEOPLE),--people $(p)) $(CERTIFY_FLAGS)

# Every certificate test, with any exact re-check too long for make test's budget (marked
# certificates; the 4-person one-deck certificates and the 5-person one by total run in make
# test too, the 5-person one by cards through nine solve in tests/cli/test_choice.py); the 6+
# people's are checked by nine certify --check FILE.
check-certificates: $(STAMP)
	$(BIN)/python -m pytest -p no:xdist -m "certificates or not certificates" tests/choice/table/stored

tables: $(STAMP)
	$(BIN)/nine tables --out tables/

# docs/par-sheet-first-page.png: the first screen (A4 proportions) of a published PAR sheet.
screenshot: browser
	profile=$$(mktemp -d) && chromium $(CHROMIUM_FLAGS) --user-data-dir=$$profile \
	  --window-size=1240,1754 --screenshot=docs/par-sheet-first-page.png \
	  file://$(CURDIR)/tables/par/lucky-baccarat-8-decks.html; status=$$?; \
	  rm -rf $$profile; exit $$status

clean:
	rm -rf $(VENV) build *.egg-info
