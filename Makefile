# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench soak clean venv micropython

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

# Runs the rig: real pins on a Raspberry Pi, the simulator anywhere else.
run: $(STAMP)
	$(BIN)/cleptomano run $(ARGS)

# The whole suite, headless, in two passes: everything on two workers (pytest-xdist, one test
# module per worker at a time), then alone the tests that measure real time (marked `serial`),
# so that no other test competes with what they time.  The tests marked `slow` (minutes of real
# time) run in `make soak`.  PYTEST_ARGS goes to both passes; a pass it leaves empty is fine.
PYTEST := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest
test: $(STAMP) $(MICROPYTHON_STAMP)
	$(PYTEST) -n 2 --dist loadscope -m "not serial and not slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(PYTEST) -m "serial and not slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.bench

# The long reliability run (about 30 minutes on 2 cores): the tests marked `slow`, the soak on
# seeds 1-10 at 3,000 turns each, then the whole-match kill sweep (SIGKILL right after every fsync).  Not part of `make test`.
SOAK_SEEDS ?= 1 2 3 4 5 6 7 8 9 10
SOAK_TURNS ?= 3000
soak: $(STAMP)
	$(PYTEST) -m slow
	@for seed in $(SOAK_SEEDS); do 	    echo "soak: seed $$seed, $(SOAK_TURNS) turns" >&2; 	    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.soak 	        --turns $(SOAK_TURNS) --seed $$seed > .soak-$$seed.json || 	        { cat .soak-$$seed.json; exit 1; }; 	    $(BIN)/python -c "import json; r = json.load(open('.soak-$$seed.json')); 	print('seed %d: %d matches, %d faults injected, %d crashes resumed: ok' % 	(r['seed'], r['matches'], r['faults_total'], r['faults'].get('restart', 0)))"; 	done
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.killsweep

clean:
	rm -rf $(VENV) build *.egg-info $(MICROPYTHON)/node_modules $(MICROPYTHON)/lib $(MICROPYTHON_STAMP)
