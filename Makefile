# The two commands a newcomer runs: `make serve` and `make test`. Each sets itself up.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
APT    := $(shell command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo) apt-get

.PHONY: serve build site test lint unit golden package deps zensical-deps system-deps npm-deps clean bench bench-year

serve: package
	NO_MKDOCS_2_WARNING=1 $(BIN)/readinglist serve

build: package
	$(BIN)/readinglist build

site: package
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The package alone (what serve and build need), or with the test tools (`deps`: pytest, Playwright,
# Zensical, ...), each installed once per change of pyproject.toml.
package: $(VENV)/.installed-package

deps: $(VENV)/.installed

$(VENV)/.installed-package: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed: $(VENV)/.installed-package
	$(BIN)/pip install -q -e '.[test]'
	touch $@

# The newest Zensical that installs here, tested beside the test extra's 0.0.73 (tests/site/browser/
# conftest.py, `zensical_newest_site`): in a virtualenv of its own, with readinglist (editable) so
# that it finds the theme. 0.1.3 and later need a zensical-ui the registry does not have.
ZENSICAL_NEWEST := 0.1.2
ZENSICAL_VENV   := .venv-zensical-$(ZENSICAL_NEWEST)

zensical-deps: $(ZENSICAL_VENV)/.installed

$(ZENSICAL_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(ZENSICAL_VENV)
	$(ZENSICAL_VENV)/bin/pip install -q --upgrade pip
	$(ZENSICAL_VENV)/bin/pip install -q -e . 'zensical==$(ZENSICAL_NEWEST)'
	touch $@

# Debian packages the tests drive: Chromium for the browser tests, TeX for the BibTeX proof,
# pandoc for the citeproc proof of the CSL-JSON and BibTeX exports, Java for the Nu HTML checker
# and npm to fetch it.
system-deps:
	@need=""; \
	command -v chromium >/dev/null 2>&1 || need="$$need chromium"; \
	command -v pandoc   >/dev/null 2>&1 || need="$$need pandoc"; \
	command -v pdflatex >/dev/null 2>&1 || need="$$need texlive-latex-base texlive-latex-recommended"; \
	command -v bibtex   >/dev/null 2>&1 || need="$$need texlive-binaries"; \
	command -v biber    >/dev/null 2>&1 || need="$$need biber texlive-bibtex-extra"; \
	kpsewhich biblatex.sty >/dev/null 2>&1 || need="$$need texlive-bibtex-extra"; \
	command -v java     >/dev/null 2>&1 || need="$$need default-jre-headless"; \
	command -v npm      >/dev/null 2>&1 || need="$$need npm"; \
	if [ -n "$$need" ]; then \
	  echo "installing Debian packages:$$need"; \
	  $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends $$need; \
	fi

# The Nu HTML checker (vnu.jar from npm's vnu-jar, pinned), run with Debian's Java by
# tests/site/browser/test_html_valid.py; in node_modules/ (git-ignored), no package.json needed.
VNU_VERSION := 26.9.27
VNU_JAR     := node_modules/vnu-jar/build/dist/vnu.jar

npm-deps: $(VNU_JAR)

$(VNU_JAR): | system-deps
	npm install --no-save --no-audit --no-fund --no-package-lock vnu-jar@$(VNU_VERSION)

lint: deps
	$(BIN)/ruff check generator tests benchmarks
	$(BIN)/mypy generator

unit: deps zensical-deps
	$(BIN)/pytest -q -m "not browser and not tex"

test: deps zensical-deps system-deps npm-deps lint
	NO_MKDOCS_2_WARNING=1 $(BIN)/pytest

# Regenerate the golden Markdown, BibTeX and formatted-reference files after an intended change.
golden: deps
	READINGLIST_UPDATE_GOLDEN=1 $(BIN)/pytest -q tests/render/test_golden.py tests/render/test_references.py \
	  tests/render/test_references_pandoc.py \
	  tests/enrich/bibtex/test_bibtex_golden.py tests/enrich/test_topics_golden.py

# The whole build of 10,000 papers (both workloads, every variant of benchmarks/variants.py, three
# interleaved rounds) against stock MkDocs, plus search and edit-loop latency; `benchmarks/run.py
# --quick` is the smoke test. The package is byte-compiled first, as a regular install is: an
# editable install compiles on first import, and with PYTHONDONTWRITEBYTECODE set every process
# would compile it again.
bench: deps
	$(BIN)/python -m compileall -q generator
	NO_MKDOCS_2_WARNING=1 $(BIN)/python benchmarks/run.py --sizes 10000 --search --edit-loop $(BENCH_ARGS)

# A year of a daily arXiv mailing (issue 46): the seeded list at 100,000 papers, base only, one
# round, against stock MkDocs. Long: about an hour and a half on two cores, and it needs 16 GB free
# (the issue measured an 11.7 GB generator peak at 36518a2). docs/developer-guide/benchmark.md.
bench-year: deps
	$(BIN)/python -m compileall -q generator
	NO_MKDOCS_2_WARNING=1 $(BIN)/python benchmarks/run.py --sizes 100000 --workloads seeded --variants base \
	  --repeats 1 $(BENCH_ARGS)

clean:
	rm -rf site .pytest_cache .mypy_cache .ruff_cache
	find build -mindepth 1 ! -name .gitignore -delete
