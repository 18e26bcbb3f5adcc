#!/usr/bin/env bash
# Installs (or updates) the Cleptomano referee as a systemd service on Raspberry Pi OS Lite
# (bookworm or later), from a clone of the repository:
#
#   sudo ./systemd/install.sh              install or update, enable and (re)start the service
#   sudo ./systemd/install.sh --no-start   same, but leave it to start at the next boot
#   ./systemd/install.sh --dry-run         print what would be done; change nothing
#   ./systemd/install.sh --root DIR        write every file under DIR instead of /, and record the
#                                          commands that would touch the live system (apt-get,
#                                          useradd, pip, udevadm, systemctl...) in DIR/install.log
#
# Safe to run again: packages, the user and the venv are brought up to date, the unit and udev
# rules are replaced, and an existing /etc/cleptomano/rig.toml is never overwritten. The wheels
# pip builds here (pygame: many minutes on a Pi) stay in pip's cache, root's ~/.cache/pip
# or $PIP_CACHE_DIR when set, so running again does not build them again.
set -euo pipefail
umask 022

readonly SERVICE=cleptomano.service
readonly SERVICE_USER=cleptomano
# The groups that own the devices the rig opens (see SupplementaryGroups= in the unit).
readonly DEVICE_GROUPS=(gpio i2c dialout video render input audio)
readonly PREFIX=/opt/cleptomano
readonly VENV=$PREFIX/venv
readonly SRC=$PREFIX/src
readonly CONF_DIR=/etc/cleptomano
readonly STATE_DIR=/var/lib/cleptomano
readonly UNIT_DIR=/etc/systemd/system
readonly UDEV_DIR=/etc/udev/rules.d
# Kernel modules loaded at every boot: i2c-dev makes /dev/i2c-1 of the I2C controller that
# dtparam=i2c_arm=on (config.txt) turns on, for the hand sensor.
readonly MODULES_FILE=/etc/modules-load.d/cleptomano.conf
readonly BOOT_MODULES=(i2c-dev)
# python3-venv/-dev and a compiler: the venv, and what is built on the Pi: pygame, against
# Debian's SDL2 because the SDL inside pygame's PyPI wheels has no KMS/DRM video driver (the
# display runs without X); on 32-bit Pi OS also lgpio (swig) and gpiod, which PyPI ships as
# wheels for aarch64 only.
readonly APT_PACKAGES=(
    python3-venv python3-dev build-essential pkg-config swig
    libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev
    libfreetype-dev libportmidi-dev libjpeg-dev
    i2c-tools
    espeak-ng
)

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO_DIR
ROOT=""
DRY_RUN=0
START=1
LOG=""

usage() {
    cat <<EOF
Usage: sudo $0 [--no-start] [--dry-run] [--root DIR]

Installs the Cleptomano referee as the systemd service $SERVICE.
  --no-start   enable the service but do not start it now (it starts at the next boot)
  --dry-run    print every step and change nothing
  --root DIR   write files under DIR instead of /; commands that would change the live
               system are recorded in DIR/install.log instead of run
  -h, --help   show this help
EOF
}

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
die() {
    printf 'install.sh: error: %s\n' "$*" >&2
    exit 1
}

# One argument per word, quoted only when needed, so a recorded line can be pasted into a shell.
quote_cmd() {
    local out="" arg
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./=:,+@%-]+$ ]]; then
            out+="$arg "
        else
            out+="'${arg//\'/\'\\\'\'}' "
        fi
    done
    printf '%s' "${out% }"
}

# Runs a command that changes the live system, or records it (--root) or prints it (--dry-run).
run() {
    if ((DRY_RUN)); then
        note "would run: $(quote_cmd "$@")"
    elif [[ -n $ROOT ]]; then
        quote_cmd "$@" >>"$LOG"
        printf '\n' >>"$LOG"
        note "recorded: $(quote_cmd "$@")"
    else
        note "+ $(quote_cmd "$@")"
        "$@"
    fi
}

# The path under which a system path is written: DIR/path with --root, the path itself otherwise.
target() { printf '%s%s' "$ROOT" "$1"; }

make_dir() { # PATH MODE
    local dest
    dest=$(target "$1")
    if ((DRY_RUN)); then
        [[ -d $dest ]] || note "would create $dest/"
        return 0
    fi
    install -d -m "$2" "$dest"
}

install_file() { # SOURCE PATH MODE [LABEL]: always brought up to date
    local dest label=${4:-${1#"$REPO_DIR"/}}
    dest=$(target "$2")
    if [[ -f $dest ]] && cmp -s "$1" "$dest"; then
        note "unchanged: $dest"
    elif ((DRY_RUN)); then
        note "would write $dest (from $label)"
    else
        install -D -m "$3" "$1" "$dest"
        note "wrote $dest"
    fi
}

install_new_file() { # SOURCE PATH MODE [LABEL]: written only when absent, so edits survive
    local dest
    dest=$(target "$2")
    if [[ -e $dest ]]; then
        note "kept your $dest (the shipped version is in $SRC)"
    else
        install_file "$@"
    fi
}

parse_args() {
    while (($#)); do
        case $1 in
            --root)
                (($# >= 2)) || die "--root needs a directory, e.g. --root /tmp/rig-root"
                ROOT=$2
                shift 2
                ;;
            --root=*)
                ROOT=${1#--root=}
                shift
                ;;
            --no-start)
                START=0
                shift
                ;;
            --dry-run)
                DRY_RUN=1
                shift
                ;;
            -h | --help)
                usage
                exit 0
                ;;
            *)
                usage >&2
                die "unknown option '$1'; the options are listed above"
                ;;
        esac
    done
    if [[ -n $ROOT ]]; then
        [[ $ROOT == /* ]] || ROOT=$PWD/$ROOT
        ROOT=${ROOT%/}
        [[ -n $ROOT ]] || die "--root / would write over the live system; run without --root"
    fi
}

preflight() {
    [[ -f $REPO_DIR/pyproject.toml ]] ||
        die "$REPO_DIR is not the cleptomano-rig repository (no pyproject.toml); run the script from a clone: sudo ./systemd/install.sh"
    [[ -f $REPO_DIR/systemd/$SERVICE ]] ||
        die "systemd/$SERVICE is missing from $REPO_DIR; update the clone (git pull) and retry"
    [[ -f $REPO_DIR/wiring/rig.example.toml ]] ||
        die "wiring/rig.example.toml is missing from $REPO_DIR; it is the default config copied to $CONF_DIR/rig.toml. Update the clone (git pull) or restore the file, then retry"
    if [[ -z $ROOT ]] && ((!DRY_RUN)); then
        ((EUID == 0)) || die "installing a system service needs root: run sudo $0 $*"
        [[ -d /run/systemd/system ]] ||
            die "systemd is not running here, so the service cannot be installed; on a Raspberry Pi OS install it is. To only stage the files, use --root DIR"
        python3 -c 'import sys; raise SystemExit(sys.version_info < (3, 11))' 2>/dev/null ||
            die "python3 $(python3 -V 2>&1 | cut -d' ' -f2) is too old (3.11 or newer needed); use Raspberry Pi OS bookworm or later"
    fi
    check_config
    if [[ -n $ROOT ]] && ((!DRY_RUN)); then
        mkdir -p "$ROOT"
        LOG=$ROOT/install.log
        printf '# Commands install.sh would have run on the live system (it ran with --root %s).\n' "$ROOT" >"$LOG"
    fi
}

# The directory an existing rig.toml records into, when the service could not write there:
# ProtectSystem=strict leaves only its StateDirectory writable. Prints that directory (or
# nothing). "~" is the service user's home, which is the StateDirectory; a relative path is
# taken from the config's folder, as the rig does.
unwritable_recordings_dir() { # CONFIG
    python3 - "$1" "$CONF_DIR" "$STATE_DIR" <<'EOF'
import os.path, sys, tomllib
config, conf_dir, state_dir = sys.argv[1:]
try:
    with open(config, "rb") as f:
        raw = tomllib.load(f).get("storage", {}).get("recordings_dir")
except (OSError, tomllib.TOMLDecodeError):
    raw = None  # the rig names what is wrong with the file when it starts
if isinstance(raw, str):
    path = state_dir + raw[1:] if raw == "~" or raw.startswith("~/") else os.path.expanduser(raw)
    path = os.path.normpath(os.path.join(conf_dir, path))
    if os.path.commonpath([path, state_dir]) != state_dir:
        print(raw)
EOF
}

# An existing rig.toml is kept, so it is checked before anything changes.
check_config() {
    local config outside
    config=$(target "$CONF_DIR/rig.toml")
    [[ -f $config ]] || return 0
    outside=$(unwritable_recordings_dir "$config")
    [[ -z $outside ]] ||
        die "$CONF_DIR/rig.toml: [storage] recordings_dir = \"$outside\" is outside $STATE_DIR, the only directory the service may write (ProtectSystem=strict); set recordings_dir = \"$STATE_DIR\" (or a folder under it) and run install.sh again"
}

user_exists() {
    if [[ -n $ROOT ]]; then
        grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null
    else
        getent passwd "$SERVICE_USER" >/dev/null
    fi
}

install_packages() {
    say "Installing system packages (apt-get)"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

enable_i2c() {
    say "Enabling I2C (the hand sensor)"
    if [[ -n $ROOT ]] || command -v raspi-config >/dev/null; then
        run raspi-config nonint do_i2c 0
    else
        note "raspi-config not found: make sure config.txt (/boot/firmware/config.txt) has dtparam=i2c_arm=on"
    fi
    local modules
    modules=$(mktemp)
    printf '# Loaded at boot for the Cleptomano referee (systemd/install.sh).\n' >"$modules"
    printf '%s\n' "${BOOT_MODULES[@]}" >>"$modules"
    install_file "$modules" "$MODULES_FILE" 0644 "the rig's boot modules"
    rm -f "$modules"
    # Now as well, so the sensor needs no reboot (a container has no modules to load: noted).
    if [[ -z $ROOT ]] && ((!DRY_RUN)) && ! modprobe -n -a "${BOOT_MODULES[@]}" >/dev/null 2>&1; then
        note "cannot load ${BOOT_MODULES[*]} here (a container?): they load at the next boot"
    else
        run modprobe -a "${BOOT_MODULES[@]}"
    fi
}

create_user() {
    say "Creating the service user '$SERVICE_USER'"
    local group groups
    for group in "${DEVICE_GROUPS[@]}"; do
        # --force: succeeds without change when the group exists (it does on Raspberry Pi OS).
        run groupadd --system --force "$group"
    done
    groups=$(
        IFS=,
        printf '%s' "${DEVICE_GROUPS[*]}"
    )
    if user_exists; then
        run usermod --append --groups "$groups" "$SERVICE_USER"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Cleptomano referee" --groups "$groups" "$SERVICE_USER"
    fi
}

install_python() {
    say "Installing the rig into $VENV"
    local src
    src=$(target "$SRC")
    if ((DRY_RUN)); then
        note "would copy $REPO_DIR to $src"
    else
        # pip builds from this copy, so the clone gets no root-owned build files.
        rm -rf "${src:?}"
        mkdir -p "$src"
        tar -C "$REPO_DIR" --exclude=.git --exclude=.venv --exclude=build --exclude='*.egg-info' \
            --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis -cf - . |
            tar -C "$src" -xf -
        note "copied the source to $src"
    fi
    if [[ ! -x $(target "$VENV/bin/python") ]]; then
        run python3 -m venv "$VENV"
    fi
    # pip 23.1 and later reuse the wheels they built even under --no-binary (older ones, like
    # bookworm's 23.0, rebuild pygame at every install).
    run "$VENV/bin/python" -m pip install --quiet --upgrade "pip>=23.1"
    # --no-binary pygame: build it against Debian's SDL2 (KMS/DRM display). PYPI=1: lgpio's
    # source build links its own copy of liblgpio, so no extra Pi OS package is needed.
    run env PYPI=1 "$VENV/bin/python" -m pip install --no-binary pygame "$SRC"
}

install_config() {
    say "Installing the configuration into $CONF_DIR"
    make_dir "$CONF_DIR" 0755
    # The example keeps recordings in ~; the service keeps them in its StateDirectory.
    local config
    config=$(mktemp)
    sed -E "s|^recordings_dir[[:space:]]*=.*$|recordings_dir = \"$STATE_DIR\"  # the service's StateDirectory|" \
        "$REPO_DIR/wiring/rig.example.toml" >"$config"
    install_new_file "$config" "$CONF_DIR/rig.toml" 0644 "wiring/rig.example.toml"
    rm -f "$config"
    install_file "$REPO_DIR/wiring/rig.example.toml" "$CONF_DIR/rig.example.toml" 0644
    local file name
    for file in "$REPO_DIR"/wiring/*.toml; do
        name=$(basename "$file")
        [[ $name == rig.example.toml ]] && continue
        install_new_file "$file" "$CONF_DIR/$name" 0644
    done
}

install_udev_rules() {
    say "Installing udev rules"
    local rules=("$REPO_DIR"/systemd/*.rules) file
    if [[ ! -e ${rules[0]} ]]; then
        note "no udev rules in systemd/ (nothing to install)"
        return 0
    fi
    for file in "${rules[@]}"; do
        install_file "$file" "$UDEV_DIR/$(basename "$file")" 0644
    done
}

install_unit() {
    say "Installing $UNIT_DIR/$SERVICE"
    install_file "$REPO_DIR/systemd/$SERVICE" "$UNIT_DIR/$SERVICE" 0644
}

activate() {
    say "Reloading udev and systemd"
    if [[ -z $ROOT ]] && ((!DRY_RUN)) && ! udevadm control --ping >/dev/null 2>&1; then
        note "udevd is not running (a container?): the udev rules apply once it runs"
    else
        run udevadm control --reload-rules
        run udevadm trigger --action=change
    fi
    run systemctl daemon-reload
    if ((START)); then
        say "Enabling and (re)starting $SERVICE"
        run systemctl enable "$SERVICE"
        # restart, not start: an update must replace the running code.
        if ! run systemctl restart "$SERVICE"; then
            die "$SERVICE did not start. See why with: journalctl -u cleptomano -b --no-pager | tail -n 50"
        fi
    else
        say "Enabling $SERVICE (not starting it: --no-start)"
        run systemctl enable "$SERVICE"
    fi
}

main() {
    parse_args "$@"
    preflight "$@"
    if [[ -n $ROOT ]]; then
        say "Installing under $ROOT (live-system commands go to $ROOT/install.log)"
    fi
    ((DRY_RUN)) && say "Dry run: nothing is changed"
    install_packages
    enable_i2c
    create_user
    install_python
    install_config
    install_udev_rules
    install_unit
    activate
    say "Done."
    note "config:     $CONF_DIR/rig.toml (edit, then: sudo systemctl restart cleptomano)"
    note "recordings: $STATE_DIR"
    note "logs:       journalctl -u cleptomano -f"
    phones_address
}

# The address the phones at the table open, as the rig works it out from rig.toml's [web] and
# this machine's addresses (the rig's screen shows it too, as a QR code).
phones_address() {
    if [[ -n $ROOT ]] || ((DRY_RUN)); then
        note "phones:     on the rig, \`$VENV/bin/cleptomano phones --config $CONF_DIR/rig.toml\` prints the address to open"
    elif ! "$VENV/bin/cleptomano" phones --config "$CONF_DIR/rig.toml" | sed 's/^/    /'; then
        note "phones:     see the rig's screen for the address to open"
    fi
}

main "$@"
