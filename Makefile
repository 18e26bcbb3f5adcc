# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench pi-check clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Runs the rig: real pins on a Raspberry Pi, the simulator anywhere else.
run: $(STAMP)
	$(BIN)/cleptomano run $(ARGS)

# The whole suite, headless.
test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m sim.tools.bench

# The rig installed by systemd/install.sh and run as a service in a booted Debian bookworm arm64
# root (systemd-nspawn, qemu-user-static). Needs root; many minutes. Not part of `make test`.
pi-check:
	./systemd/pi-check.sh

clean:
	rm -rf $(VENV) build *.egg-info
