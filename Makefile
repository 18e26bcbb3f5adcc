# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean venv micropython

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

# The whole suite, headless.
test: $(STAMP) $(MICROPYTHON_STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.bench

clean:
	rm -rf $(VENV) build *.egg-info $(MICROPYTHON)/node_modules $(MICROPYTHON)/lib $(MICROPYTHON_STAMP)
