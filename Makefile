# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-heavy bench soak pi-check clean venv micropython browser phoneshots \
    gameshots catalogs mo langshots docs

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The relic hub firmware's MicroPython test tier (tests/test_firmware_micropython.py): the
# MicroPython WebAssembly build from npm and the Pico's driver sources from PyPI, both pinned in
# sim/micropython/.  Needs Node.js and npm; without them that tier's tests skip.
MICROPYTHON := sim/micropython
MICROPYTHON_STAMP := $(MICROPYTHON)/.installed

micropython: $(MICROPYTHON_STAMP)

$(MICROPYTHON_STAMP): $(MICROPYTHON)/package-lock.json $(MICROPYTHON)/pico-requirements.txt | $(STAMP)
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
	    (cd $(MICROPYTHON) && npm ci --no-audit --no-fund --loglevel=error >/dev/null) && \
	    rm -rf $(MICROPYTHON)/lib && \
	    $(BIN)/python -m pip install --quiet --no-deps --no-compile \
	        --target $(MICROPYTHON)/lib -r $(MICROPYTHON)/pico-requirements.txt && \
	    touch $@; \
	else \
	    echo "note: node/npm not found; the MicroPython firmware tests skip (apt-get install nodejs npm)"; \
	fi

# The phone companion's browser tests (tests/test_phone_e2e.py) and its screenshots: Playwright's
# playwright-core from npm, pinned in sim/browser/, driving Debian's chromium (apt-get install
# chromium); nothing downloads a browser.  Needs Node.js and npm; without them those tests skip.
BROWSER := sim/browser
BROWSER_STAMP := $(BROWSER)/.installed

browser: $(BROWSER_STAMP)

$(BROWSER_STAMP): $(BROWSER)/package-lock.json
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
	    (cd $(BROWSER) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
	        npm ci --no-audit --no-fund --loglevel=error >/dev/null) && touch $@; \
	else \
	    echo "note: node/npm not found; the phone companion's browser tests skip (apt-get install nodejs npm)"; \
	fi

# The pictures of the phone companion (docs/games/phones.md) (docs/screenshots/phone-*.png, tablet-*.png),
# taken in the real browser on a phone and a tablet; about half a minute.
phoneshots: $(STAMP) $(BROWSER_STAMP) mo
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.phoneshots

# The pictures of the games' phone page (docs/games/index.md) (docs/screenshots/games-*.png, the chest heist
# and Stolen Paintings), taken the same way; about 40 seconds.
gameshots: $(STAMP) $(BROWSER_STAMP) mo
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.gameshots

# The pictures of the languages (docs/builder/languages.md): a screen and a phone page in each (real Chromium).
langshots: $(STAMP) $(BROWSER_STAMP) mo
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.langshots

# The message catalogs (docs/dev/words.md): `make catalogs` adds every new code the sources use
# to each language's .po (its words to be written) and compiles them; `mo` only compiles (what
# run, test and the screenshots need: .mo files are built, never committed; the wheel's build
# compiles them too).
catalogs: $(STAMP)
	$(BIN)/python -m rig.catalogs update
	$(BIN)/python -m rig.catalogs compile

mo: $(STAMP)
	@$(BIN)/python -m rig.catalogs compile >/dev/null

# Runs the rig: real pins on a Raspberry Pi, the simulator anywhere else.
run: $(STAMP) mo
	$(BIN)/cleptomano run $(ARGS)

# The suite, headless, in one pass on three workers (pytest-xdist, one test module per worker at
# a time; three on two cores, as many tests wait on real processes).  No test measures time (a
# timing is a benchmark: `make bench`), so none needs the machine to itself, and the suite
# passes beside another `make test`.  The tests marked `heavy` (seconds of real processes each:
# the built wheel, a SIGKILL and resume, the soak, a whole match in a browser) run in
# `make test-heavy`, the ones marked `slow` (minutes) in `make soak`.  PYTEST_ARGS goes to the
# pass.  .ci/run runs `make test`, then `make test-heavy`.
# PYTHONDONTWRITEBYTECODE (set on some machines) would make every worker compile and
# assertion-rewrite every module again: about 12 s of CPU each.
PYTEST := PYTHONDONTWRITEBYTECODE= SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
    $(BIN)/python -m pytest
test: $(STAMP) $(MICROPYTHON_STAMP) $(BROWSER_STAMP) mo
	$(PYTEST) -n 3 --dist loadscope -m "not slow and not heavy" $(PYTEST_ARGS) || [ $$? -eq 5 ]

test-heavy: $(STAMP) $(MICROPYTHON_STAMP) $(BROWSER_STAMP) mo
	$(PYTEST) -m "heavy and not slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The documentation site (mkdocs.yml, the pages in docs/) built into site/, which git ignores:
# --strict makes a broken link, a missing anchor, a nav entry without its page or a page
# left out of the nav an error.  `make test` builds it the same way (tests/test_docs.py).
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP) mo
	@SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.bench

# The long reliability run (about 30 minutes on 2 cores): the tests marked `slow`, the soak on
# seeds 1-10 at 3,000 turns each, then the whole-match kill sweep (SIGKILL right after every
# fsync).  Not part of `make test`.
SOAK_SEEDS ?= 1 2 3 4 5 6 7 8 9 10
SOAK_TURNS ?= 3000
soak: $(STAMP) mo
	$(PYTEST) -m slow
	@for seed in $(SOAK_SEEDS); do 	    echo "soak: seed $$seed, $(SOAK_TURNS) turns" >&2; 	    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.soak 	        --turns $(SOAK_TURNS) --seed $$seed > .soak-$$seed.json || 	        { cat .soak-$$seed.json; exit 1; }; 	    $(BIN)/python -c "import json; r = json.load(open('.soak-$$seed.json')); 	print('seed %d: %d matches, %d faults injected, %d crashes resumed: ok' % 	(r['seed'], r['matches'], r['faults_total'], r['faults'].get('restart', 0)))"; 	done
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.killsweep

# The rig installed by systemd/install.sh and run as a service in a booted Debian bookworm arm64
# root (systemd-nspawn, qemu-user-static). Needs root; many minutes. Not part of `make test`.
pi-check:
	./systemd/pi-check.sh

clean:
	rm -rf $(VENV) build site *.egg-info $(MICROPYTHON)/node_modules $(MICROPYTHON)/lib $(MICROPYTHON_STAMP) \
	    $(BROWSER)/node_modules $(BROWSER_STAMP)
