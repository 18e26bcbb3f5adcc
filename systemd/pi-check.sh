#!/usr/bin/env bash
# `make pi-check`: the rig installed and run as a service the way a Raspberry Pi runs it, on any
# Debian or Ubuntu machine, as root.
#
#   sudo ./systemd/pi-check.sh           from a clone of the repository (it checks the clone's HEAD)
#   sudo ./systemd/pi-check.sh --keep    leave the containers' roots behind to look into
#
# Debian bookworm roots (what Raspberry Pi OS Lite is built on) are made with debootstrap and
# booted with systemd-nspawn, so the rig meets the systemd (252), Python (3.11) and packages of
# a Pi. systemd/install.sh runs in each from a clone of this repository, then the checks run:
#   install     install.sh succeeds twice: --no-start, then an update that starts the service
#   ready       the unit reaches READY=1 through sd_notify (Type=notify), and pings its watchdog
#   sandbox     its process runs as cleptomano with the 7 device groups, no capabilities, no new
#               privileges, in /run/cleptomano (RuntimeDirectory, lgpio's working directory),
#               with / read only even to root (ProtectSystem=strict), /root hidden (ProtectHome)
#               and /var/lib/cleptomano (StateDirectory) writable; natively also its system-call
#               filter
#   recording   on the simulated table (pins.backend = "sim": a container has no GPIO; display
#               off) the service referees the bundled demo match and writes it under
#               /var/lib/cleptomano, where `cleptomano replay` reads its winner
#   words       the installed rig (its venv, outside the clone) holds every catalog compiled
#               and says the rig's and a game's words in Spanish: the wheel's build step ran
#   hub         a ttyACM device (major 166) made after the service started opens from the
#               unit's cgroup, as its user: the kernel here has no cdc_acm, so "opens" is ENXIO,
#               past the device policy, where a refused device gives EPERM; a device of another
#               major (10:200, mode 0666) is the control, which the policy must refuse
#   watchdog    with its process frozen by SIGSTOP (every thread stops, the pinging one too, as in
#               a hung interpreter) systemd's watchdog fires, kills it and starts it again; that a
#               hung referee loop alone stops the pings is tests/test_service.py's job
#
# Two roots, because one cannot show everything:
#   arm64       the Pi's architecture, run under qemu-user-static: the arm64 wheels from PyPI
#               (lgpio) and what install.sh builds (pygame, against Debian's SDL). qemu-user
#               implements neither bpf() nor seccomp(), so a systemd under it cannot attach
#               DevicePolicy=, IPAddressDeny=, SystemCallFilter= or the other seccomp-based
#               settings: the hub check is skipped here, saying so. Nor can it set up a network
#               namespace ("Failed to set up network namespacing: Input/output error"), so a
#               drop-in sets PrivateNetwork=no, in this root only.
#   amd64       this machine's own architecture (on an arm64 machine the first root already is),
#               native: the unit exactly as installed, no drop-in, every setting enforced.
#
# Kept between runs in $PI_CHECK_CACHE (default /var/cache/cleptomano-pi-check): the debootstrap
# roots, copies of them with install.sh's Debian packages installed, apt's downloaded packages
# and pip's cache, which holds the pygame wheels built in the roots (under emulation, dpkg and
# that build are the bulk of a first run's time). Each run boots a fresh copy.
# Prints a summary with each check's result and the time taken; exits 0 only if none failed.
set -euo pipefail
umask 022

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO_DIR
readonly CACHE=${PI_CHECK_CACHE:-/var/cache/cleptomano-pi-check}
readonly MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
readonly SUITE=bookworm
# What a Raspberry Pi OS Lite install has that debootstrap's minimal base lacks, and the checks use.
readonly BASE_PACKAGES=systemd,systemd-sysv,dbus,udev,ca-certificates,python3,procps,iproute2,kmod
readonly UNIT=cleptomano.service
readonly STATE_DIR=/var/lib/cleptomano
readonly VENV_BIN=/opt/cleptomano/venv/bin
readonly CLONE=/root/cleptomano-rig
readonly SERVICE_USER=cleptomano
readonly DEVICE_GROUPS=(gpio i2c dialout video render input audio)
readonly HOST_TOOLS=(debootstrap:debootstrap systemd-nspawn:systemd-container)
readonly EMULATOR_TOOLS=(update-binfmts:binfmt-support qemu-aarch64-static:qemu-user-static)

HOST_ARCH=""
# The commit every root checks: the clone's HEAD when the run started (a commit made during the
# run's hour is not half checked).
COMMIT=""
KEEP=0
STARTED_S=$SECONDS
RESULTS=()
FAILED=0
# The root being checked: its architecture, whether it runs under qemu, where it lives.
ARCH=""
EMULATED=0
ROOT=""
LOGS=""
NSPAWN_PID=""
LEADER=""

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
die() {
    printf 'pi-check: error: %s\n' "$*" >&2
    exit 1
}

result() { # PASS|FAIL|SKIP NAME DETAIL
    RESULTS+=("$(printf '%s  %-6s %-10s %s' "$1" "$ARCH" "$2" "$3")")
    [[ $1 == FAIL ]] && FAILED=1
    note "$1 $2: $3"
}
pass() { result PASS "$@"; }
fail() { result FAIL "$@"; }
skip() { result SKIP "$@"; }

minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

summary() {
    local status=$?
    trap - EXIT
    stop_container
    printf '\n==> pi-check summary (%s, commit %s)\n' "$(minutes $((SECONDS - STARTED_S)))" \
        "${COMMIT:0:7}"
    local line
    for line in "${RESULTS[@]}"; do
        printf '    %s\n' "$line"
    done
    ((${#RESULTS[@]})) || printf '    (no check ran)\n'
    printf '    logs: %s\n' "$CACHE/logs"
    if ((status != 0 || FAILED)); then
        printf '    result: FAILED\n'
        exit 1
    fi
    printf '    result: passed (a SKIP says why that root cannot show it)\n'
}

parse_args() {
    while (($#)); do
        case $1 in
            --keep) KEEP=1 ;;
            -h | --help)
                sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
                exit 0
                ;;
            *) die "unknown option '$1'; the only option is --keep (see --help)" ;;
        esac
        shift
    done
}

preflight() {
    ((EUID == 0)) || die "pi-check boots containers and needs root: sudo make pi-check"
    command -v apt-get >/dev/null ||
        die "pi-check installs its tools with apt-get; run it on Debian or Ubuntu"
    [[ -f $REPO_DIR/systemd/install.sh ]] || die "$REPO_DIR is not a clone of cleptomano-rig"
    COMMIT=$(git -C "$REPO_DIR" rev-parse HEAD 2>/dev/null) ||
        die "$REPO_DIR is not a git clone; pi-check installs from a clone of its HEAD"
    if [[ -n $(git -C "$REPO_DIR" status --porcelain --untracked-files=no) ]]; then
        note "uncommitted changes in $REPO_DIR are not checked: the roots get a clone of HEAD"
    fi
    HOST_ARCH=$(dpkg --print-architecture)
}

# --- This machine: tools, and qemu for arm64 -------------------------------------------------------

install_host_tools() {
    local entry tools=("${HOST_TOOLS[@]}") missing=()
    [[ $HOST_ARCH == arm64 ]] || tools+=("${EMULATOR_TOOLS[@]}")
    for entry in "${tools[@]}"; do
        command -v "${entry%%:*}" >/dev/null || missing+=("${entry#*:}")
    done
    ((${#missing[@]})) || return 0
    say "Installing on this machine: ${missing[*]}"
    timeout 300 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# The kernel runs arm64 programs through qemu once binfmt_misc knows it. The F flag opens the
# interpreter at registration, so it works inside a root that has no copy of it.
register_qemu() {
    local handler=/proc/sys/fs/binfmt_misc/qemu-aarch64
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    [[ -e $handler ]] || update-binfmts --enable qemu-aarch64
    [[ -e $handler ]] ||
        die "the qemu-aarch64 binfmt handler did not register (update-binfmts --display qemu-aarch64 says why)"
    grep -q '^flags:.*F' "$handler" ||
        die "the qemu-aarch64 binfmt handler lacks the F flag, so it cannot run inside a container; re-register it: update-binfmts --disable qemu-aarch64 && update-binfmts --enable qemu-aarch64"
}

# --- The roots ----------------------------------------------------------------------------------

# debootstrap once per architecture (15 minutes under emulation, 2 natively), then this machine's
# own certificate authorities, trusted the way it trusts them, or pip cannot reach the package
# index through a TLS-inspecting proxy. Each stamp holds what it was made from, so a changed
# package list or a new certificate makes it again.
base_root() {
    local base=$CACHE/base-$SUITE-$ARCH certs
    if [[ ! -f $base.debootstrap || $(cat "$base.debootstrap") != "$BASE_PACKAGES" ]]; then
        say "Making a $SUITE $ARCH root with debootstrap (once; kept in $base)"
        rm -rf "${base:?}" "$base.debootstrap" "$base.certs"
        debootstrap --arch="$ARCH" --variant=minbase --include="$BASE_PACKAGES" \
            "$SUITE" "$base" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1 ||
            die "debootstrap failed; see $LOGS/debootstrap.log"
        printf '%s' "$BASE_PACKAGES" >"$base.debootstrap"
    fi
    certs=$(cat /usr/local/share/ca-certificates/* 2>/dev/null | sha256sum | cut -d' ' -f1)
    if [[ ! -f $base.certs || $(cat "$base.certs") != "$certs" ]]; then
        say "Giving the $ARCH root this machine's certificate authorities"
        rm -rf "$base/usr/local/share/ca-certificates"
        cp -a /usr/local/share/ca-certificates "$base/usr/local/share/"
        chroot "$base" update-ca-certificates --fresh >"$LOGS/certificates.log" 2>&1 ||
            die "update-ca-certificates failed in the $ARCH root; see $LOGS/certificates.log"
        printf '%s' "$certs" >"$base.certs"
    fi
}

# The base root with install.sh's Debian packages already installed, made once and kept: under
# emulation dpkg spends a quarter of an hour on them. install.sh still runs apt-get in every
# fresh root (which finds them there). The list is what install.sh --dry-run would install, so
# a changed list, like a new base, makes it again.
provisioned_root() {
    local base=$CACHE/base-$SUITE-$ARCH ready=$CACHE/provisioned-$SUITE-$ARCH packages stamp
    packages=$(bash "$REPO_DIR/systemd/install.sh" --dry-run |
        sed -n 's/.* apt-get install -y --no-install-recommends //p')
    [[ -n $packages ]] || die "install.sh --dry-run named no Debian packages to install"
    stamp="$(cat "$base.debootstrap" "$base.certs") $packages"
    [[ -f $ready.stamp && $(cat "$ready.stamp") == "$stamp" ]] && return 0
    say "Installing install.sh's Debian packages into a copy of the $ARCH root (once; kept in $ready)"
    rm -rf "${ready:?}" "$ready.stamp"
    cp -a "$base" "$ready"
    install -d "$CACHE/apt"
    # shellcheck disable=SC2016,SC2086  # expanded inside the root; one package per word
    SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn --quiet --register=no --keep-unit \
        --directory="$ready" --bind="$CACHE/apt:/var/cache/apt/archives" -- /bin/sh -c \
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends -o DPkg::Options::=--force-unsafe-io "$@"' sh $packages \
        </dev/null >"$LOGS/provision.log" 2>&1 ||
        die "installing install.sh's packages into the $ARCH root failed; see $LOGS/provision.log"
    printf '%s' "$stamp" >"$ready.stamp"
}

fresh_root() {
    say "A fresh copy of the $ARCH root in $ROOT"
    rm -rf "${ROOT:?}"
    cp -a "$CACHE/provisioned-$SUITE-$ARCH" "$ROOT"
    printf 'cleptomano-%s\n' "$ARCH" >"$ROOT/etc/hostname"
    : >"$ROOT/etc/machine-id"
    # dpkg without an fsync per file: the root is thrown away, and apt's minutes under
    # emulation shrink.
    printf 'force-unsafe-io\n' >"$ROOT/etc/dpkg/dpkg.cfg.d/pi-check-unsafe-io"
    git clone --quiet "$REPO_DIR" "$ROOT$CLONE"
    git -C "$ROOT$CLONE" checkout --quiet "$COMMIT"
    note "cloned $(git -C "$ROOT$CLONE" rev-parse --short HEAD) into $CLONE"
    if ((EMULATED)); then  # the one setting qemu-user cannot give; see the top of this file
        install -d "$ROOT/etc/systemd/system/$UNIT.d"
        printf '# pi-check, under qemu-user only: no network namespace can be set up there.\n[Service]\nPrivateNetwork=no\n' \
            >"$ROOT/etc/systemd/system/$UNIT.d/50-pi-check.conf"
    fi
}

# --- The container ------------------------------------------------------------------------------

boot_container() {
    say "Booting the $ARCH root with systemd-nspawn"
    install -d "$CACHE/pip" "$CACHE/apt"
    # The unified cgroup hierarchy, where systemd attaches DevicePolicy= as a BPF program (on a
    # hybrid host nspawn would hand the container read-only v1 controllers instead), and bpf()
    # allowed, which nspawn's own system-call filter refuses by default. --register=no and
    # --keep-unit: nothing asks this machine's systemd, which need not run.
    SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn --quiet --register=no --keep-unit --boot \
        --directory="$ROOT" --machine="cleptomano-$ARCH" --console=pipe \
        --system-call-filter=bpf \
        --bind="$CACHE/pip:/root/.cache/pip" --bind="$CACHE/apt:/var/cache/apt/archives" \
        </dev/null >"$LOGS/console.log" 2>&1 &
    NSPAWN_PID=$!
    local deadline=$((SECONDS + 30))
    until LEADER=$(pgrep -P "$NSPAWN_PID" | head -n 1) && [[ -n $LEADER ]]; do
        kill -0 "$NSPAWN_PID" 2>/dev/null || die "systemd-nspawn exited; see $LOGS/console.log"
        ((SECONDS < deadline)) || die "no init in the container after 30 s; see $LOGS/console.log"
        sleep 0.2
    done
    local state=""
    deadline=$((SECONDS + 600))
    while ((SECONDS < deadline)); do
        # The container's init, looked up again each time: the first child seen may have been
        # nspawn's own short-lived helper, gone since (then every in_ct failed until the end).
        LEADER=$(pgrep -P "$NSPAWN_PID" | head -n 1) || true
        state=$(in_ct systemctl is-system-running 2>/dev/null || true)
        [[ $state == running || $state == degraded ]] && break
        kill -0 "$NSPAWN_PID" 2>/dev/null || die "the container stopped while booting; see $LOGS/console.log"
        sleep 2
    done
    [[ $state == running || $state == degraded ]] ||
        die "the container did not finish booting within 600 s ($state); see $LOGS/console.log"
    if [[ $state == degraded ]]; then
        note "booted, degraded; failed: $(in_ct systemctl --failed --plain --no-legend | cut -d' ' -f1 | xargs)"
    else
        note "booted"
    fi
}

# Runs a command inside the container, as root, with a clean environment, in its init's working
# directory, / (a path given to --wd would be looked up outside the container).
in_ct() {
    nsenter --target "$LEADER" --all --root --wd -- /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        "$@"
}

stop_container() {
    [[ -n $NSPAWN_PID ]] || return 0
    in_ct journalctl --no-pager --boot >"$LOGS/journal.log" 2>&1 || true
    # The container's own systemd powers it off; nspawn's SIGTERM (SIGRTMIN+3 to the container's
    # init) is the fallback. Under qemu-user the halt can outlast the wait: then the container's
    # init is killed, which ends every process of its PID namespace (else the emulated systemd
    # stayed behind, orphaned, after nspawn itself was killed), and nspawn after it.
    in_ct systemctl --no-block poweroff >/dev/null 2>&1 || kill -TERM "$NSPAWN_PID" 2>/dev/null || true
    local deadline=$((SECONDS + 90))
    while kill -0 "$NSPAWN_PID" 2>/dev/null && ((SECONDS < deadline)); do
        sleep 0.5
    done
    if kill -0 "$NSPAWN_PID" 2>/dev/null; then
        note "the $ARCH container did not power off within 90 s; killing it"
        [[ -z $LEADER ]] || kill -KILL "$LEADER" 2>/dev/null || true
        deadline=$((SECONDS + 10))
        while kill -0 "$NSPAWN_PID" 2>/dev/null && ((SECONDS < deadline)); do
            sleep 0.5
        done
        kill -KILL "$NSPAWN_PID" 2>/dev/null || true
    fi
    wait "$NSPAWN_PID" 2>/dev/null || true
    if [[ -n $LEADER ]] && kill -0 "$LEADER" 2>/dev/null; then
        note "the $ARCH container's init (pid $LEADER) is still running: kill it with kill -KILL $LEADER"
    fi
    LEADER=""
    NSPAWN_PID=""
    if ((!KEEP)); then
        rm -rf "${ROOT:?}"
    fi
}

unit_property() { in_ct systemctl show --value --timestamp=unix --property="$1" "$UNIT"; }

# Runs a command the way the service runs: in the unit's cgroup (where systemd attached its
# device policy) and its mount namespace (ProtectSystem=, ProtectHome=), as USER with the groups
# /etc/group gives it. The cgroup is joined from this machine's side: no process may move into a
# cgroup namespace's tree from a cgroup outside it.
as_unit() { # USER COMMAND...
    local user=$1 cgroup init host_pid="" pid main
    shift
    main=$(unit_property MainPID)
    init=$(awk -F: '$1 == "0" {print $3}' "/proc/$LEADER/cgroup")
    cgroup=$(findmnt --noheadings --output TARGET --types cgroup2 | head -n 1)
    cgroup+=${init%/init.scope}$(unit_property ControlGroup)
    while read -r pid; do
        [[ $(awk '/^NSpid:/ {print $NF}' "/proc/$pid/status") == "$main" ]] && host_pid=$pid
    done <"$cgroup/cgroup.procs"
    if [[ -z $host_pid ]]; then
        note "the main process $main is not in $cgroup"
        return 1
    fi
    # shellcheck disable=SC2016  # expanded by the inner shell
    sh -c 'cgroup=$1 user=$2 && shift 2 && echo $$ >"$cgroup/cgroup.procs" &&
        exec nsenter --target "$0" --mount -- setpriv --reuid="$user" --regid="$user" --init-groups -- "$@"' \
        "$host_pid" "$cgroup" "$user" "$@"
}

# Waits until the service has been up (READY) for less than $1 seconds, so a check that needs
# one process has time before the demo match ends and the service starts the next one.
fresh_start() { # SECONDS
    local deadline=$((SECONDS + 180)) since
    while ((SECONDS < deadline)); do
        if [[ $(unit_property ActiveState) == active ]]; then
            since=$(unit_property ActiveEnterTimestamp)
            (($(in_ct date +%s) - ${since#@} < $1)) && return 0
        fi
        sleep 1
    done
    return 1
}

# --- The checks ---------------------------------------------------------------------------------

check_install() {
    say "install.sh --no-start, the check's rig.toml, then install.sh again (an update)"
    local t0=$SECONDS first second config=$ROOT/etc/cleptomano/rig.toml udev=""
    if ! in_ct bash "$CLONE/systemd/install.sh" --no-start >"$LOGS/install-1.log" 2>&1; then
        fail install "install.sh --no-start failed after $(minutes $((SECONDS - t0))); see $LOGS/install-1.log"
        return 1
    fi
    first=$((SECONDS - t0))
    # The installed example, on the simulated table (no GPIO here) with the display off.
    sed -i -e 's/^backend = "auto"/backend = "sim" /' \
        -e '/^\[display\]/,/^\[/ s/^enabled = true/enabled = false/' "$config"
    if ! grep -q '^backend = "sim"' "$config" || ! grep -q '^enabled = false' "$config"; then
        fail install "could not set pins.backend and display.enabled in $config"
        return 1
    fi
    t0=$SECONDS
    if ! in_ct bash "$CLONE/systemd/install.sh" >"$LOGS/install-2.log" 2>&1; then
        fail install "the update (install.sh, which starts the service) failed; see $LOGS/install-2.log"
        return 1
    fi
    second=$((SECONDS - t0))
    if ! grep -q "kept your /etc/cleptomano/rig.toml" "$LOGS/install-2.log"; then
        fail install "the update did not keep rig.toml; see $LOGS/install-2.log"
        return 1
    fi
    grep -q "udevd is not running" "$LOGS/install-1.log" && udev="; no udevd: noted, went on"
    pass install "first run $(minutes "$first"), update $(minutes "$second")$udev"
}

check_ready() {
    say "READY=1 through sd_notify, then watchdog pings"
    if ! fresh_start 30; then
        fail ready "not (re)started within 180 s: $(unit_property ActiveState)/$(unit_property SubState); see $LOGS/journal.log"
        return 0
    fi
    local pid ping1 ping2
    pid=$(unit_property MainPID)
    ping1=$(unit_property WatchdogTimestampMonotonic)
    sleep 8  # more than the 5 s between pings
    ping2=$(unit_property WatchdogTimestampMonotonic)
    if [[ $(unit_property MainPID) != "$pid" ]]; then
        fail ready "the main process changed while waiting for a ping (it restarted)"
    elif ((ping2 <= ping1)); then
        fail ready "no watchdog ping arrived in 8 s"
    else
        pass ready "active (Type=notify: READY=1 received), status \"$(unit_property StatusText)\", pings arrive"
    fi
}

check_sandbox() {
    say "The sandbox the service runs in"
    local pid status problems=() gid group out filter
    fresh_start 30 || problems+=("the service is not active")
    pid=$(unit_property MainPID)
    status=$(in_ct cat "/proc/$pid/status")
    [[ $(awk '/^Uid:/ {print $2}' <<<"$status") == "$(in_ct id -u "$SERVICE_USER")" ]] ||
        problems+=("not running as $SERVICE_USER")
    for group in "${DEVICE_GROUPS[@]}"; do
        gid=$(in_ct getent group "$group" | cut -d: -f3)
        [[ " $(awk '/^Groups:/ {$1 = ""; print}' <<<"$status") " == *" $gid "* ]] ||
            problems+=("not in group $group")
    done
    [[ $(awk '/^NoNewPrivs:/ {print $2}' <<<"$status") == 1 ]] || problems+=("NoNewPrivs is off")
    [[ $(awk '/^CapEff:/ {print $2}' <<<"$status") == 0000000000000000 ]] ||
        problems+=("it has capabilities")
    [[ $(in_ct readlink "/proc/$pid/cwd") == /run/cleptomano ]] || problems+=("cwd is not /run/cleptomano")
    for out in /run/cleptomano "$STATE_DIR"; do
        [[ $(in_ct stat -c '%U %a' "$out") == "$SERVICE_USER 700" ]] ||
            problems+=("$out is not $SERVICE_USER's with mode 0700")
    done
    out=$(as_unit root sh -c ': >/opt/cleptomano/pi-check-probe' 2>&1) &&
        problems+=("root may write /opt (ProtectSystem=strict)")
    [[ $out == *"Read-only file system"* ]] || problems+=("writing /opt: '$out', not read only")
    as_unit root test -e "$CLONE" && problems+=("$CLONE is visible (ProtectHome=yes)")
    as_unit "$SERVICE_USER" sh -c ": >$STATE_DIR/pi-check-probe && rm $STATE_DIR/pi-check-probe" ||
        problems+=("$STATE_DIR is not writable by $SERVICE_USER")
    # Every process in the container has nspawn's own filters; the unit's adds its own.
    if (($(awk '/^Seccomp_filters:/ {print $2}' <<<"$status") >
        $(awk '/^Seccomp_filters:/ {print $2}' "/proc/$LEADER/status"))); then
        filter="its system-call filter on"
    elif ((EMULATED)); then
        filter="no system-call filter (qemu-user has no seccomp(); see amd64)"
    else
        problems+=("no system-call filter (SystemCallFilter=)")
    fi
    if ((${#problems[@]})); then
        fail sandbox "$(IFS=';'; printf '%s' "${problems[*]}")"
    else
        pass sandbox "$SERVICE_USER + 7 device groups, no capabilities, NoNewPrivs, cwd /run/cleptomano, / read only, /root hidden, $STATE_DIR writable, $filter"
    fi
}

check_hub() {
    say "A relic hub plugged in after the service started"
    local dialout probe allowed refused
    fresh_start 30 || note "the service is not active: the probe will say so"
    dialout=$(in_ct getent group dialout | cut -d: -f3)
    # What the kernel and the udev rule make of a Pico: /dev/ttyACM0, 166:0, root:dialout 0660.
    in_ct sh -c "rm -f /dev/ttyACM0 /dev/pi-check-refused &&
        mknod -m 0660 /dev/ttyACM0 c 166 0 && chgrp $dialout /dev/ttyACM0 &&
        mknod -m 0666 /dev/pi-check-refused c 10 200"
    probe='import errno, os, sys
try:
    os.close(os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK))
    print("opened")
except OSError as exc:
    print(errno.errorcode[exc.errno])'
    allowed=$(as_unit "$SERVICE_USER" python3 -c "$probe" /dev/ttyACM0 || echo "no probe")
    refused=$(as_unit "$SERVICE_USER" python3 -c "$probe" /dev/pi-check-refused || echo "no probe")
    in_ct rm -f /dev/ttyACM0 /dev/pi-check-refused
    if [[ $refused != EPERM ]] && ((EMULATED)); then
        skip hub "the control device 10:200 was not refused (open: $refused): qemu-user has no bpf(), so no device policy is attached here; see amd64"
    elif [[ $refused != EPERM ]]; then
        fail hub "the control device 10:200 (mode 0666) gave $refused, not EPERM: DevicePolicy=closed is not enforced"
    elif [[ $allowed == EPERM || $allowed == EACCES || $allowed == "no probe" ]]; then
        fail hub "/dev/ttyACM0 (166:0), made after the start, was refused: $allowed"
    else
        pass hub "/dev/ttyACM0 made after the start: $allowed, past the device policy (no cdc_acm in this kernel); control 10:200: EPERM"
    fi
}

check_recording() {
    say "The demo match, refereed by the service, recorded under $STATE_DIR"
    local deadline=$((SECONDS + 300)) file winner=""
    while ((SECONDS < deadline)) && [[ -z $winner ]]; do
        sleep 5
        for file in $(in_ct sh -c "ls $STATE_DIR/match-*.jsonl 2>/dev/null" || true); do
            winner=$(in_ct "$VENV_BIN/cleptomano" replay "$file" 2>>"$LOGS/replay.log" |
                sed -n 's/.*"winner": "\([^"]*\)".*/\1/p' || true)
            [[ -n $winner ]] && break
        done
    done
    if [[ -n $winner ]]; then
        pass recording "$file replays: winner $winner"
    else
        fail recording "no finished match replayed from $STATE_DIR within 300 s; see $LOGS/replay.log"
    fi
}

# The wheel install.sh built carries the compiled catalogs: every .po installed has its .mo beside
# it, and the installed rig, run from outside the clone, says the rig's and a game's words in
# Spanish (a missing catalog would fall back to English or the code).
check_words() {
    say "The catalogs' words in the installed rig"
    local probe said expected
    # shellcheck disable=SC2016  # Python, not shell
    probe='import pathlib, sys
import rig
import rig.games  # the registry hands each game catalog to the words, as in the rig
from rig.core.msg import Msg
from rig.words import Words, catalog_file
root = pathlib.Path(rig.__file__).parent
pos = sorted(root.glob("**/locale/*/LC_MESSAGES/*.po"))
missing = [str(p.relative_to(root)) for p in pos if not p.with_suffix(".mo").is_file()]
print(len(pos), "catalogs,", len(missing), "missing:", *missing)
print(catalog_file("rig", "es"))
words = Words("es")
print(words.text(Msg("rig.phones.wrong_codes", n=20)))
print(words.text(Msg("stop_thief.call.clue_again", number=2, clue="X")))'
    said=$(in_ct "$VENV_BIN/python" -c "$probe" 2>"$LOGS/words.log") || {
        fail words "the installed rig could not say its words; see $LOGS/words.log"
        return 0
    }
    printf '%s\n' "$said" >>"$LOGS/words.log"
    expected="20 CÓDIGOS ERRÓNEOS: emparejar
Otra vez la pista 2: X."
    if [[ $(sed -n 1p <<<"$said") != *", 0 missing:"* ]]; then
        fail words "catalogs left out of the installed rig: $(sed -n 1p <<<"$said")"
    elif [[ $(sed -n 2p <<<"$said") != /opt/cleptomano/venv/* ]]; then
        fail words "the catalog comes from $(sed -n 2p <<<"$said"), not the installed venv"
    elif [[ $(sed -n '3,$p' <<<"$said") != "$expected" ]]; then
        fail words "not the Spanish words: $(sed -n '3,$p' <<<"$said" | paste -sd'|')"
    else
        pass words "$(sed -n 1p <<<"$said" | cut -d, -f1) compiled in the venv; es: \"$(sed -n 3p <<<"$said")\""
    fi
}

check_watchdog() {
    say "A frozen referee: SIGSTOP, then systemd's watchdog"
    if ! fresh_start 30; then
        fail watchdog "the service is not active; see $LOGS/journal.log"
        return 0
    fi
    local pid since new_pid="" t0=$SECONDS
    pid=$(unit_property MainPID)
    since=$(in_ct date +%s)
    in_ct kill -STOP "$pid"
    # WatchdogSec=10, then SIGABRT (systemd follows it with SIGCONT, so the stopped process dies
    # of it), RestartSec=5 and a new start.
    local deadline=$((SECONDS + 120))
    while ((SECONDS < deadline)); do
        new_pid=$(unit_property MainPID)
        [[ $new_pid != "$pid" && $new_pid != 0 && $(unit_property ActiveState) == active ]] && break
        sleep 1
    done
    in_ct journalctl --no-pager --quiet --output=cat --unit="$UNIT" --since="@$since" \
        >"$LOGS/watchdog.log" 2>&1 || true
    if ! grep -q "Watchdog timeout" "$LOGS/watchdog.log" ||
        ! grep -q "Failed with result 'watchdog'" "$LOGS/watchdog.log"; then
        fail watchdog "no watchdog timeout within 120 s of SIGSTOP; see $LOGS/watchdog.log"
    elif [[ $new_pid == "$pid" || $(unit_property ActiveState) != active ]]; then
        fail watchdog "the watchdog fired but the service did not come back; see $LOGS/watchdog.log"
    else
        pass watchdog "\"Watchdog timeout\", failed with result 'watchdog', started again as pid $new_pid, READY $((SECONDS - t0)) s after SIGSTOP"
    fi
}

# One root, from its copy to its last check.
check_root() { # ARCH
    ARCH=$1
    EMULATED=0
    [[ $ARCH == "$HOST_ARCH" ]] || EMULATED=1
    ROOT=$CACHE/root-$ARCH
    LOGS=$CACHE/logs/$ARCH
    mkdir -p "$LOGS"
    rm -f "$LOGS"/*.log
    if ((EMULATED)); then
        say "The $ARCH root, under qemu-user-static"
        register_qemu
    else
        say "The $ARCH root, native"
    fi
    base_root
    provisioned_root
    fresh_root
    boot_container
    if check_install; then
        check_ready
        check_sandbox
        check_hub
        check_recording
        check_words
        check_watchdog
    fi
    stop_container
}

main() {
    parse_args "$@"
    preflight
    mkdir -p "$CACHE/logs"
    trap summary EXIT
    install_host_tools
    check_root arm64
    [[ $HOST_ARCH == arm64 ]] || check_root "$HOST_ARCH"
}

main "$@"
