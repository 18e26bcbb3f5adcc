"""``cleptomano``: run | replay | check-wiring | layout | screenshot | history | audits |
leaderboard.

Exit status 2 with one line on stderr for bad input (a config file, a recording, an argument);
the message names the file, the line or key, and what is allowed.
"""

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

from .core.errors import ConfigError, HardwareError, RecordingError, RigError
from .words import Words, english, english_error, localize
from .games import names as game_names

log = logging.getLogger("cleptomano")


def on_signals(action, at_once=None):
    """SIGINT and SIGTERM call ``action()``, on a thread of its own.  A Python signal handler
    runs on the main thread between two of its steps, maybe inside ``Event.wait`` holding the
    event's lock: setting that event from the handler itself would wait for that lock forever
    (seen as a hung Ctrl-C during a game switch).  ``at_once()`` (optional; it must take no
    lock) runs in the handler itself, so the main thread's very next step knows (a loaded
    machine runs the new thread late: issue 27).  Returns the handler (the tests call it)."""
    def handler(*_):
        if at_once is not None:
            at_once()
        threading.Thread(target=action, name="cleptomano-signal", daemon=True).start()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handler)
    return handler


def is_raspberry_pi():
    try:
        with open("/proc/device-tree/model", "rb") as f:
            return b"Raspberry Pi" in f.read()
    except OSError:
        return False


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line on stderr (the option, the
    value, what is allowed), as every other bad input is, and exit status 2."""

    def error(self, message):
        self.exit(2, "%s: %s (`%s --help` lists the options)\n"
                  % (self.prog, message, self.prog))


def seconds_option(low, high, example, low_open=False):
    """An argparse ``type``: a number of seconds, finite and from ``low`` to ``high`` (above
    ``low`` with ``low_open``); anything else (``nan``, ``inf``, ``-1``, ``1e308``, a word) is
    refused by name with what is allowed.  Every duration and timeout option of the command
    line is read with one of these."""
    span = ("above %g, at most %g" if low_open else "from %g to %g") % (low, high)

    def seconds(text):
        allowed = "give seconds %s, e.g. %g" % (span, example)
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number of seconds; %s"
                                             % (text, allowed)) from None
        too_low = value <= low if low_open else value < low
        if too_low or not value <= high:        # NaN is in no range; inf is beyond every high
            raise argparse.ArgumentTypeError("%s is out of range; %s" % (text.strip(), allowed))
        return value
    seconds.__name__ = "seconds"
    return seconds


#: ``run --duration-s``: 0 (start and stop, as the tests do) to a week of game nights.
RUN_DURATION_S = (0.0, 7 * 24 * 3600.0)
#: ``check-wiring --timeout-s``: how long to wait for each input.
WIRING_TIMEOUT_S = (1.0, 3600.0)
#: The leaderboard's bounds: --wait-s gathers the retained matches (seconds are plenty; a
#: broker that is there answers at once); --duration-s stops serving (a year at most).
MAX_WAIT_S = 600
MAX_DURATION_S = 366 * 24 * 3600


def _parser():
    p = _Parser(prog="cleptomano", description="The Cleptomano referee rig.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="referee matches (real pins on a Pi, the simulator "
                                     "elsewhere)")
    run.add_argument("--config", help="rig.toml (default: built-in defaults)")
    backend = run.add_mutually_exclusive_group()
    backend.add_argument("--sim", action="store_true", help="force the simulator")
    backend.add_argument("--real", action="store_true", help="force the real pins")
    run.add_argument("--headless", action="store_true", help="no score display")
    run.add_argument("--demo", metavar="FILE",
                     help="simulator: play this recording on the simulated table (default: the "
                          "bundled demo match when no display is open)")
    run.add_argument("--interactive", action="store_true",
                     help="simulator: play the museum from this terminal's keyboard")
    run.add_argument("--recordings", metavar="DIR", help="where match recordings go")
    run.add_argument("--duration-s", type=seconds_option(*RUN_DURATION_S, 3600), default=None,
                     help="stop after this many seconds, %g to %g (default: run until "
                          "stopped)" % RUN_DURATION_S)
    run.add_argument("--game", default=None, choices=game_names(),
                     help="the game to referee (default cleptomano, or the other game a crash "
                          "cut off, resumed); the others need no sensors, so --sim and --real "
                          "make no difference to them")
    run.add_argument("--players", metavar="NAMES",
                     help='another game\'s players, in order, e.g. "Ana,Ben,Caro" (default: '
                          '[match] players of the config)')

    rep = sub.add_parser("replay", help="re-referee a recording; prints the result as JSON")
    rep.add_argument("file")
    rep.add_argument("--overrides", action="store_true",
                     help="also list the referee's overrides (undos, voids, corrections, "
                          "hauls, clamps) with who made them and why")

    chk = sub.add_parser("check-wiring", help="walk through every input to find miswiring")
    chk.add_argument("--config")
    chk.add_argument("--sim", action="store_true",
                     help="the simulated museum (a demo of the check)")
    chk.add_argument("--timeout-s", type=seconds_option(*WIRING_TIMEOUT_S, 30), default=30.0,
                     help="seconds to wait for each input before marking it silent, %g to %g "
                          "(default 30)" % WIRING_TIMEOUT_S)

    lay = sub.add_parser("layout", help="check the guard's laser layout against the rulebook")
    lay.add_argument("layout", help='e.g. "4: L-I R-II; 5: L-III table-R; 6: R-I L-II"')
    lay.add_argument("--lasers", type=int, default=None,
                     help="the level's added lasers, 3-5 (default: any count of 3 to 5)")

    shot = sub.add_parser("screenshot", help="render a display state to a PNG")
    shot.add_argument("state")
    shot.add_argument("out")
    shot.add_argument("--size", default="800x480", help="WIDTHxHEIGHT (default 800x480)")
    shot.add_argument("--lang", default="en",
                      help="the screen's language: en, es, fr, ro, or pseudo (accented and "
                           "40%% longer, to find clipped texts); default en")

    ph = sub.add_parser("phones", help="the address phones open to follow and command the rig")
    ph.add_argument("--config")

    hist = sub.add_parser("history", help="list finished matches with winners and scores")
    hist.add_argument("--config")
    hist.add_argument("--dir", help="recordings directory")

    aud = sub.add_parser("audits", help="what the recordings say: matches, touches per input, "
                                        "caught and escaped, sensor health")
    aud.add_argument("--config")
    aud.add_argument("--recordings", help="recordings directory (default: the config's)")
    aud.add_argument("--since", help="count the recordings from this day on (YYYY-MM-DD)")
    aud.add_argument("--json", action="store_true", help="one JSON object (docs/contracts/cli.md)")
    aud.add_argument("--csv", metavar="FILE", help="also write the audits as CSV to FILE")
    aud.add_argument("--silent-turns", type=int, default=None, metavar="N",
                     help="warn of a rod silent for N turns the thieves passed it (5-1000, "
                          "default 30)")

    board = sub.add_parser("leaderboard", help="a tournament's standings: follow every rig on "
                                               "the broker, or rebuild them from recordings")
    source = board.add_mutually_exclusive_group(required=True)
    source.add_argument("--broker", metavar="URL", help="mqtt://HOST:1883 or mqtts://HOST:8883")
    source.add_argument("--from", dest="from_dirs", metavar="DIR", nargs="+",
                        help="rebuild the standings from these rigs' recordings folders "
                             "(searched through) and print them as JSON")
    board.add_argument("--username", default="leaderboard",
                       help="the broker user (default: leaderboard, as the shipped ACL names it)")
    board.add_argument("--password-file", metavar="FILE",
                       help="a file holding the broker password on one line")
    board.add_argument("--ca-file", metavar="FILE", help="mqtts: the broker's CA certificate")
    board.add_argument("--bind", action="append", metavar="ADDRESS",
                       help="serve the page on this address (again for more; default: every "
                            "local network address of this machine)")
    board.add_argument("--port", type=int, default=None,
                       help="the page's TCP port (default 8090)")
    board.add_argument("--json", action="store_true",
                       help="with --broker: print the standings once, after --wait-s, and exit")
    board.add_argument("--wait-s", type=seconds_option(0.0, MAX_WAIT_S, 3, low_open=True),
                       default=3.0,
                       help="with --json: how long to gather the retained matches (default 3, "
                            "at most %d)" % MAX_WAIT_S)
    board.add_argument("--duration-s", default=None,
                       type=seconds_option(0.0, MAX_DURATION_S, 3600, low_open=True),
                       help="stop serving after this many seconds (default: until stopped)")
    board.add_argument("--state-file", metavar="FILE", default=None,
                       help="keep every match taken here and read it back at start, so a "
                            "restarted leaderboard never goes back to an older version "
                            "(default: $XDG_STATE_HOME/cleptomano/leaderboard.json, i.e. "
                            "~/.local/state/cleptomano/leaderboard.json)")
    return p


#: The exit status of bad input (a setting, an option, a recording; argparse's own too): one
#: line on stderr says what and how to fix it.  systemd/cleptomano.service does not restart
#: the rig on it (RestartPreventExitStatus=): restarting cannot fix a setting, and a crash
#: loop would only bury the line.  A crash (a traceback: exit 1) is restarted.
EXIT_BAD_INPUT = 2


def main(argv=None):
    try:
        parser = _parser()          # lists the games: a broken installed game is refused here
    except RigError as exc:
        print("cleptomano: %s" % english_error(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        return COMMANDS[args.command](args)
    except RigError as exc:      # bad config, bad recording, no pin library...
        print("cleptomano: %s" % english_error(exc), file=sys.stderr)
        return EXIT_BAD_INPUT


# --- replay ----------------------------------------------------------------------------------------

def cmd_replay(args):
    from .shell.storage import replay_file
    torn = []
    result = replay_file(args.file, torn, overrides=getattr(args, "overrides", False))
    for warning in torn:
        print("cleptomano: warning: %s" % warning, file=sys.stderr)
    # A result may hold codes (a game's words for a call): the terminal says them in English,
    # so the output is the same JSON in any language.
    print_json(localize(result, Words("en")))
    return 0


def print_json(obj):
    """``obj`` as one line of JSON on stdout, in UTF-8 whatever the terminal's locale ("José",
    not "Jos\\u00e9": issue 30); the parsed JSON is the same as with escapes.  A text that
    cannot be UTF-8 (a lone surrogate) is written escaped, as before."""
    text = json.dumps(obj, ensure_ascii=False) + "\n"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = (json.dumps(obj) + "\n").encode("ascii")
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    stream.write(data)
    stream.flush()


# --- history ---------------------------------------------------------------------------------------

def _recordings_dir(args):
    from .shell.config import load_config
    if getattr(args, "dir", None):
        return Path(args.dir)
    return Path(load_config(args.config).storage.recordings_dir)


def history_lines(directory):
    """One line a recording: each game's in registry order (Cleptómano's matches first)."""
    from dataclasses import replace
    from .games import at_table, games
    from .shell.session import cut_off
    lines, empty = [], 0
    for g in games():
        for path, result, torn in _replays(directory, "%s-*.jsonl" % g.prefix, lines):
            if g.recording_entry(result, True) is None:
                empty += 1          # a start, restart or switch: nobody played a turn
                continue
            outcome = g.outcome(result)
            if not outcome.over and not cut_off(g, path):
                # Its end line, or (a game without one) no open marker left: the game has
                # ended, stopped cleanly before its end; it is not one to be taken up again.
                outcome = replace(outcome, over=True)
            who = ", ".join(g.players_in(result))
            # The table's matches were the rig's only recordings once: their lines never
            # named the game.
            lines.append("%s  %s  %s%s" % (path.name, who if at_table(g) else "%s: %s" % (
                g.title, who), english(g.outcome_words(outcome)), _TORN if torn else ""))
            for said in getattr(g, "override_lines", lambda _: ())(result):
                lines.append("    override: %s" % english(said))     # issue 31
    if empty:
        # Issue 30: 7 of 12 lines of an evening were such matches ("no winner").
        lines.append("(%d match%s in which nobody played a turn not listed)"
                     % (empty, "" if empty == 1 else "es"))
    return lines


def _replays(directory, pattern, lines):
    """``(path, result, torn)`` for each recording ``pattern`` names in ``directory``, replayed;
    one that cannot be replayed gets its line in ``lines`` instead."""
    from .shell.storage import replay_file
    for path in sorted(Path(directory).glob(pattern)):
        torn = []
        try:
            result = replay_file(path, torn, overrides=True)
        except RecordingError as exc:
            lines.append("%s  unreadable: %s" % (
                path.name, english(exc.msg) if exc.msg is not None else exc.detail))
            continue
        yield path, result, torn


_TORN = "  (torn last line: the rig stopped while writing it)"


def cmd_history(args):
    directory = _recordings_dir(args)
    if args.dir and not directory.is_dir():
        # A folder named on the command line must be there (a typo must not read as "no
        # recordings yet"); the config's own folder appears with the first recording.
        raise ConfigError("%s is not a directory of recordings (%s); give the folder the rig "
                          "records to (/var/lib/cleptomano under systemd)"
                          % (directory, "it does not exist" if not directory.exists()
                             else "it is a file"), key="--dir")
    lines = history_lines(directory)
    if not lines:
        print("No recordings in %s yet." % directory)
    for line in lines:
        print(line)
    return 0


# --- audits ----------------------------------------------------------------------------------------

def cmd_audits(args):
    """``cleptomano audits``: docs/contracts/cli.md."""
    from .core import audits as core
    from .shell import audits
    since = audits.parse_since(args.since) if args.since is not None else None
    health = {}
    if args.silent_turns is not None:
        health["silent_turns"] = core.bounded("--silent-turns", args.silent_turns,
                                              core.SILENT_TURNS)
    directory = Path(args.recordings) if args.recordings else _recordings_dir(args)
    if args.recordings and not directory.is_dir():
        raise ConfigError("--recordings %s is not a directory of recordings (%s); give the "
                          "folder the rig records to (/var/lib/cleptomano under systemd)"
                          % (directory, "it does not exist" if not directory.exists()
                             else "it is a file"), key="--recordings")
    torn = []
    out = audits.audits(directory, since, warnings=torn, say=english_error, **health)
    for warning in torn:
        print("cleptomano: warning: %s" % warning, file=sys.stderr)
    for bad in out["unreadable"]:
        print("cleptomano: left out of the audits: %s" % bad["error"], file=sys.stderr)
    if args.csv:
        try:
            Path(args.csv).write_text(audits.to_csv(out), encoding="utf-8")
        except OSError as exc:
            raise ConfigError("--csv %s cannot be written (%s); give a file in a folder you "
                              "may write to" % (args.csv, exc.strerror), key="--csv") from None
    if args.json:
        print_json(out)
    else:
        print(audits.text(out))
    return 0


# --- leaderboard -----------------------------------------------------------------------------------

def _check_leaderboard_args(args):
    """Every option of ``leaderboard`` checked before anything starts: one ConfigError naming
    the option, the value, what is allowed and the fix."""
    from .core.addresses import bind_problem
    from .web.leaderboard import DEFAULT_PORT
    for address in args.bind or ():
        if address != "local":
            problem = bind_problem(address)
            if problem is not None:
                raise ConfigError(problem, key="--bind")
    if args.port is not None and not 1024 <= args.port <= 65535:
        raise ConfigError("--port %d is not a TCP port the leaderboard may take; give "
                          "1024-65535 (default %d)" % (args.port, DEFAULT_PORT), key="--port")
    # --wait-s and --duration-s are read by seconds_option: finite, within their bounds.


def _state_file(args):
    """The leaderboard's --state-file, or its default under $XDG_STATE_HOME (its folder made);
    ConfigError when it cannot be written there."""
    if args.state_file is not None:
        path = Path(args.state_file)
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(base) / "cleptomano" / "leaderboard.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError("%s cannot be made (%s); give --state-file FILE in a folder the "
                              "leaderboard may write" % (path.parent, exc.strerror or exc),
                              key="--state-file") from None
    if path.is_dir() or not path.parent.is_dir():
        raise ConfigError("%s is not a file in an existing folder; give --state-file FILE in "
                          "a folder the leaderboard may write" % path, key="--state-file")
    return path


def cmd_leaderboard(args):
    from .links.feed import records_from
    _check_leaderboard_args(args)
    if args.from_dirs:
        missing = [d for d in args.from_dirs if not Path(d).is_dir()]
        if missing:
            raise ConfigError("%s is not a directory of recordings; give each rig's recordings "
                              "folder (copied off its /var/lib/cleptomano)" % missing[0],
                              key="--from")
        from collections import Counter
        from .games import tournament
        warn = lambda line: print("cleptomano: warning: %s" % line, file=sys.stderr)
        left_out = Counter()
        records = records_from(args.from_dirs, warn, left_out)
        for line in _left_out_lines(left_out, records):
            warn(line)
        sys.stdout.write(json.dumps(tournament().standings(records), indent=1) + "\n")
        return 0
    feed = _feed(args)
    if args.json:
        feed.start()
        try:
            time.sleep(max(0.0, args.wait_s))
        finally:
            feed.stop()
        if not (feed.was_connected or feed.received):
            # The reason in the line itself (issue 30: "see the lines above" with nothing
            # above when no broker answered).
            raise RigError("the broker %s did not let the leaderboard in within --wait-s %g s "
                           "(%s); check the address, --username and --password-file"
                           % (feed.broker.url, args.wait_s, feed.problem or
                              "no answer: is a broker running there, reachable from here?"))
        sys.stdout.write(json.dumps(feed.standings(), indent=1) + "\n")
        return 0
    return _serve_leaderboard(feed, args)


def _left_out_lines(left_out, records):
    """Why ``leaderboard --from`` counts fewer matches than the folders hold (issue 30: a folder
    of decided matches printed empty standings and no reason): one line a reason."""
    from .links.feed import NO_RIG, NOT_YET
    lines = []
    if left_out[NO_RIG]:
        lines.append("%d recording(s) left out: their header names no rig, so they are not a "
                     "tournament's; the leaderboard counts the matches of rigs with a "
                     "[tournament] rig_id in rig.toml (set it before the tournament's matches)"
                     % left_out[NO_RIG])
    if left_out[NOT_YET]:
        lines.append("%d match(es) left out: neither decided nor closed yet (a rig publishes a "
                     "match once it is decided or the next one starts)" % left_out[NOT_YET])
    if not records and not lines and not sum(left_out.values()):
        lines.append("no match-*.jsonl recording found in the folders given; give each rig's "
                     "recordings folder (copied off its /var/lib/cleptomano)")
    return lines


def _feed(args):
    from .core.tournament import parse_broker
    from .links.feed import Feed
    from .shell.config import read_password_file
    try:
        broker = parse_broker(args.broker)
    except ConfigError as exc:
        raise ConfigError(exc.detail, key="--broker") from None
    password = read_password_file(Path(args.password_file), key="--password-file") \
        if args.password_file else None
    ca_file = Path(args.ca_file) if args.ca_file else None
    if ca_file is not None:
        if not broker.tls:
            raise ConfigError("%s: --ca-file is for an mqtts:// broker; give --broker "
                              "mqtts://%s:8883, or leave --ca-file out" % (ca_file, broker.host),
                              key="--ca-file")
        from .files import load_ca_file
        load_ca_file(ca_file, key="--ca-file")          # one line now, not a crash later
    return Feed(broker, username=args.username, password=password, ca_file=ca_file,
                state_file=_state_file(args))


def _serve_leaderboard(feed, args):
    from .web.leaderboard import DEFAULT_PORT, WHO, build_app
    from .web.server import WebServer
    port = args.port if args.port is not None else DEFAULT_PORT
    stop = threading.Event()
    on_signals(stop.set)
    server = WebServer(build_app(feed.standings), args.bind or ("local",), port, who=WHO)
    feed.start()
    try:
        server.start()
        for address, bound in server.bound:
            log.info("Leaderboard: http://%s:%d/ (the big screen), /phone (a phone)",
                     "[%s]" % address if address.version == 6 else address, bound)
        stop.wait(args.duration_s)
    finally:
        server.stop()
        feed.stop()
    return 0


# --- screenshot ------------------------------------------------------------------------------------

def cmd_screenshot(args):
    try:
        width, height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        raise ConfigError("--size %r is not WIDTHxHEIGHT; give e.g. 800x480 or 1920x1080"
                          % args.size) from None
    from .display.samples import screenshot
    screenshot(args.state, args.out, size=(width, height), lang=args.lang)
    print(args.out)
    return 0


# --- check-wiring ----------------------------------------------------------------------------------

COLUMNS = 80


def terminal_line(line, width=COLUMNS):
    """``line`` wrapped to ``width`` columns, its continuation indented two more spaces."""
    import textwrap
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent,
                                   break_on_hyphens=False)) or line


def cmd_check_wiring(args):
    from .shell.config import load_config
    from .shell.wiring import run_check
    config = load_config(args.config)
    stop = threading.Event()
    builder = None
    if args.sim or not is_raspberry_pi():
        print("Simulated museum: a virtual builder follows every step.")
        backend, builder = simulator().wiring_demo(config, stop)
    else:
        from .shell.build import real_backend
        backend = real_backend(config)
    try:
        check = run_check(config, backend, lambda line: print(terminal_line(line)),
                          args.timeout_s, stop, builder)
    finally:
        stop.set()
        if builder is not None:
            builder.close()
    return 0 if check.ok else 1


# --- layout ----------------------------------------------------------------------------------------

def cmd_layout(args):
    """Exit 0 and print the layout when it is legal; 1 and every broken rule, one a line, when
    it is not; 2 (one line) when it cannot be read.  The check is the game's (Cleptómano's
    ``commands`` part, found through the registry)."""
    return game_command("layout")(args, lambda line: print(english(line)))


def game_command(name):
    """What the subcommand ``name`` does: the ``COMMANDS`` entry of the first game of the
    registry whose ``commands`` part has one (:class:`rig.core.contract.Commands`)."""
    from .games import games, part
    for g in games():
        commands = part(g, "commands")
        if commands is not None and name in commands.COMMANDS:
            return commands.COMMANDS[name]
    raise RigError("no registered game has the command %r; reinstall the rig" % name)


# --- phones ----------------------------------------------------------------------------------------

def cmd_phones(args):
    """The address the phones at the table open (what the rig's QR code holds), from the
    config's ``[web]`` and this machine's addresses now; the installer prints it."""
    from .core.addresses import best_url
    from .shell.config import load_config
    web = load_config(args.config).web
    if not web.enabled:
        print("The phone companion is off ([web] enabled = false); set it to true and restart "
              "the rig to serve phones.")
        return 0
    from .web.server import served_addresses
    try:
        addresses = [address for address, _ in served_addresses(web.bind)]
    except OSError as exc:
        raise HardwareError("cannot list this machine's addresses (%s)" % exc) from None
    print("Phones: open %s at the table (the pairing code is on the rig's screen)."
          % best_url(addresses, web.port))
    return 0


# --- run -------------------------------------------------------------------------------------------

def _open_display(config, headless, game=None, museum_keys=False, night=None):
    """The score display, or None when it is off.  When no screen can be opened the display
    says so once in the log and stays headless (the rig referees on, sounds still play).
    ``game``: a companion game, whose own sounds the display makes at start-up;
    ``museum_keys``: the simulator's, the keys the guard's leave unused play the museum."""
    if headless or not config.display.enabled:
        return None
    from .display.window import open_display
    from .shell.table_state import effects_volume
    table = getattr(night, "table", None)        # the service mode's effects volume (issue 31)
    volume = effects_volume(table.state.tuning if table is not None else ())
    display = open_display(config.display, config.keys, _table_players(config), game=game,
                           sound_config=config.sound, museum_keys=museum_keys, volume=volume)
    display.wait_ready(10.0)
    return display   # headless when no screen opened: it still plays the sounds


def cmd_run(args):
    """Referee the game of ``--game``, then each game a paired phone chooses next (the game
    night, :mod:`rig.web.night`), in this one process, until stopped or ``--duration-s``."""
    from .shell.config import load_config
    from .shell.night import Night
    from .shell.systemd import Notifier
    from .table.threads import hand_on_promptly
    config = load_config(args.config)
    hand_on_promptly()          # the touch never waits 5 ms for another thread's turn
    simulate = args.sim or (not args.real and config.pins.backend != "real" and (
        config.pins.backend == "sim" or not is_raspberry_pi()))
    night = Night(config, Notifier(), until=None if args.duration_s is None
                  else time.monotonic() + args.duration_s)
    on_signals(night.stop_all, night.signalled)
    recordings = args.recordings or config.storage.recordings_dir
    from .shell.storage import FolderLock
    # One rig a recordings folder: a second is refused here, before it reads a recording.
    folder = FolderLock(recordings).acquire()
    try:
        return _run_night(config, args, night, recordings, simulate)
    finally:
        folder.release()


def _run_night(config, args, night, recordings, simulate):
    """:func:`cmd_run` once the recordings folder is this rig's."""
    from .shell.table_state import TableMemory
    from .web.night import CLEPTOMANO, Choice
    night.table = TableMemory.load(recordings)     # the evening's choices (issue 30)
    resumed = _cut_off(recordings, args)
    if resumed is not None:
        choice = resumed
    elif args.game not in (None, CLEPTOMANO):
        if args.demo or args.interactive:
            raise ConfigError("--demo and --interactive play Cleptómano's simulated museum; "
                              "leave them out with --game %s" % args.game, key="--game")
        choice = Choice(args.game, game_players(args.players, config))
    elif args.players:
        raise ConfigError("--players names another game's players; Cleptómano's come from "
                          "[match] players in the config, or the set-up screen (S)",
                          key="--players")
    else:
        choice = _night_choice(night.table.state, config, args) or Choice(CLEPTOMANO)
    night.phones = _night_phones(config, night, recordings)
    from .shell.audits import HealthWatch
    # The sensor health, logged before anyone plays and shown on the ready page (issue 31).
    night.health = HealthWatch(recordings).check()
    try:
        _play_night(config, args, night, recordings, simulate, choice)
    finally:
        if night.phones is not None:
            night.phones.farewell()             # "the rig stopped, it will be back"
            night.phones.stop()
        night.notifier.stopping()
    print("Stopped%s; the recordings are closed in %s." % (
        " (Ctrl-C or SIGTERM)" if night.stopped.is_set() else "", recordings), file=sys.stderr)
    return 0


def _play_night(config, args, night, recordings, simulate, choice):
    """Game after game until the night ends (stopped, or nobody chose another)."""
    from .web.night import CLEPTOMANO
    while True:
        leg = night.leg()
        if night.stopping():                # a signal during the switch
            return
        _remember_choice(night.table, choice)
        run = _run_cleptomano if choice.game == CLEPTOMANO else _run_game
        run(night.table.config(config), args, recordings, leg, simulate, night, choice)
        chosen = night.take()
        if chosen is None:
            return
        choice, by = chosen
        night.switching("switching to %s, as %s chose" % (choice.game, by))


def _remember_choice(table, choice):
    """The night's game kept in the table's state, and its players unless a solo game's (one
    player playing alone: the table's players stay for the next game)."""
    from .games import game as game_named
    players = choice.players if choice.players and not game_named(choice.game).solo else None
    table.choose(game=choice.game, **({"players": players} if players else {}))


def _night_choice(state, config, args):
    """Without ``--game``, the night's game the table last chose (kept in its state through a
    restart), with the players kept, as a :class:`rig.web.night.Choice`; None: Cleptómano (none
    kept, Cleptómano kept, or the kept game's players no longer fit it: logged)."""
    from .web.night import CLEPTOMANO, Choice, checked_players
    game = state.game
    if game in (None, CLEPTOMANO) or args.demo or args.interactive:
        return None
    if game not in game_names() or not state.players:
        log.warning("Table's state: the night's game %r is not one this rig plays, or has no "
                    "players kept; Cleptómano starts.", game)
        return None
    try:
        players = checked_players(game, list(state.players), config)
    except RigError as exc:
        log.warning("Table's state: %s's players %s do not fit it (%s); Cleptómano starts.",
                    game, ", ".join(state.players), exc)
        return None
    log.info("Game night: %s, the table's game before the restart, starts again (give --game "
             "to play another game).", game)
    return Choice(game, players)


def _cut_off(recordings, args):
    """Without ``--game`` (as systemd starts the rig), the companion game a crash cut off, as a
    :class:`rig.web.night.Choice` with its recording's players: the night resumes it
    (:func:`rig.shell.session.night_game`); None: Cleptómano, or the game ``--game`` names."""
    if args.game is not None or args.players or args.demo or args.interactive \
            or not Path(recordings).is_dir():
        return None
    from .shell.session import night_game
    from .web.night import Choice
    found = night_game(Path(recordings))
    if found is None:
        return None
    players = tuple(found.game.players_in(found.game.result(found.state)))
    log.info("Game night: %s in %s was cut off; it is resumed (give --game to play another "
             "game).", found.game.title, found.path)
    return Choice(found.game.name, players)


def _night_phones(config, night, recordings=None):
    """The night's one web server (a :class:`rig.web.night.Switchboard`), started, or None
    when ``[web] enabled = false`` or it cannot listen (the rig referees without phones)."""
    if not config.web.enabled:
        return None
    from .web.night import Switchboard
    from .web.pairing import Pairing
    # The pairings outlive a restart (their tokens' hashes, for the night: docs/games/phones.md).
    store = Path(recordings) / "phones.json" if recordings is not None else None
    phones = Switchboard(config.web, Pairing(store=store))
    try:
        phones.start()
    except RigError as exc:
        log.warning("Phones: %s; the rig referees without them.", exc)
        return None
    return phones


def _run_cleptomano(config, args, recordings, stop, simulate, night, choice):
    """Referee Cleptómano until ``stop`` (``choice`` names no players: its set-up has them)."""
    display = _open_display(config, args.headless, museum_keys=simulate, night=night)
    web, display = _with_phones(config, recordings, display, night,
                                tell_code=simulate and (display is None or display.headless))
    if simulate:
        return _run_sim(config, args, display, recordings, stop, night, web)
    return _run_real(config, args, display, recordings, stop, night, web)


def _with_phones(config, recordings, display, night, tell_code, game=False):
    """``(web, faces)``: the phones' web face, served by the ``night``'s phones, and
    ``display`` with it, as one face; ``(None, display)`` without phones.  ``tell_code``: log
    each pairing code, as no screen shows it; ``game``: the face of one of the other games."""
    phones = night.phones
    if phones is None:
        return None, display
    if game:
        from .web.face import GameWebFace as WebFace
    else:
        from .web.face import WebFace
    from .shell.faces import Faces
    web = WebFace(config.web, recordings, pairing=phones.pairing, tell_code=tell_code)
    web.night = night
    phones.serve(web)
    return web, Faces(display, web)


def _run_game(config, args, recordings, stop, simulate, night, choice):
    """Host one of the companion games until ``stop``: the keys on the display, the phones,
    and on a Raspberry Pi the museum's start button (no other sensor)."""
    from .display.game_keys import primary
    from .shell.build import build_game_host
    from .shell.clock import MonotonicClock
    display = _open_display(config, args.headless, game=choice.game, night=night)
    # The simulator alone logs the pairing code (a laptop shows it nowhere else); a real rig
    # never does: its log is readable by more than the table (README "Phone companion").
    web, display = _with_phones(config, recordings, display, night,
                                tell_code=simulate and (display is None or display.headless),
                                game=True)
    clock = MonotonicClock()
    host = build_game_host(config, choice.game, choice.players, clock=clock,
                           recordings_dir=recordings, display=display,
                           key_help=_game_key_help(choice.game),
                           phones=web.pairing if web is not None else None,
                           button=primary(choice.game))
    button = None
    try:
        host.start()
        button = _game_button(config, clock, host, simulate)
        print("%s: %s. Press H at the screen for the keys; Ctrl-C stops (the game is "
              "recorded to %s)." % (host.adapter.title, ", ".join(host.players),
                                    host.recording_path), file=sys.stderr)
        _serve(host, stop, night, extra_alive=host.alive, web=web)
    finally:
        if button is not None:
            button.close()
        host.stop()
        if display is not None:
            display.stop()
    return 0


def _game_button(config, clock, host, simulate):
    """The museum's start button for the hosted game (None when there is none to open)."""
    if simulate:
        log.info("Simulator: no start button to open (not a Raspberry Pi, or --sim); the keys "
                 "and the phones play.")
        return None
    from .shell.build import game_button, table_parts
    button = game_button(config, clock, host.button_edge, parts=table_parts(host.adapter))
    if button is not None:
        log.info("Start button: on GPIO%d; a press is what Space is at the keys.",
                 config.pinmap.inputs["button"].pin)
    return button


def _table_players(config):
    """The config's players: those of the table's game's own table (the registry's first's,
    Cleptómano's ``[match]``)."""
    from .games import games, settings
    return tuple(settings(games()[0], config).players)


def game_players(names, config):
    """``--players "Ana,Ben"`` as a tuple of names, else the config's players."""
    if names is None:
        return _table_players(config)
    from .core.names import check_names
    players = tuple(n.strip() for n in names.split(","))
    if not all(players):
        raise ConfigError("%r has an empty name; give the names separated by commas, e.g. "
                          "\"Ana,Ben,Caro\"" % names, key="--players")
    try:
        return check_names(players)      # the one rule for names (rig.core.names)
    except RigError as exc:
        raise ConfigError("%s, e.g. --players \"Ana,Ben,Caro\"" % exc, key="--players") \
            from None


def _game_key_help(game):
    from .display.game_keys import key_help
    return key_help(game)


def _serve(rig, stop, night, extra_alive=None, web=None):
    if web is not None:
        web.rig = rig               # the phones' commands go to it from now on
    if getattr(night, "table", None) is not None:
        rig.remember = night.table.choose     # the table's choices kept for the evening
        rig.table_sources = night.table.sources
    _attract(rig, getattr(night, "config", None))
    if getattr(night, "health", None) is not None and hasattr(rig, "health"):
        rig.health = night.health       # judged again at each new match (Cleptómano's)
    # The builder's service mode (issue 31): its factory values are rig.toml's (the night's
    # config, before the table's choices).
    config = getattr(night, "config", None) or getattr(rig, "config", None)
    if config is not None:
        from .shell.service import attach_service
        attach_service(rig, config, getattr(night, "table", None))
    return serve(rig, stop, night.notifier, extra_alive=extra_alive, until=night.until,
                 stopping=False)


def _attract(rig, config):
    """The attract screen of the rig's screen when nobody plays (issue 31): after ``[table]
    attract_after_s`` (0: none), the standings read from the rig's recordings folder."""
    from .shell.attract import AttractWatch
    idle_s = config.table.attract_after_s if config is not None else 0
    if not idle_s:
        return
    phones = rig.phones
    rig.attract = AttractWatch(idle_s, getattr(rig.session, "directory", None),
                               phones=phones.view if phones is not None else None,
                               now=rig.clock.now())


def serve(rig, stop, notifier, extra_alive=None, *, until=None, stopping=True):
    """The main thread's job while the rig runs: tell systemd it is ready, and let the watchdog
    ping only while the referee loop keeps turning and every input thread is alive (a hung rig
    is restarted by systemd), until ``stop`` is set or the monotonic time ``until`` (the game
    night's ``--duration-s``) has come.  ``stopping``: tell systemd the rig stops, when it
    returns (a game night says so once, after its last game)."""
    watchdog = None
    if notifier is not None:
        from .shell.systemd import Watchdog
        notifier.ready("refereeing: %s" % ", ".join(rig.players))
        watchdog = Watchdog(notifier)
        if watchdog.ping_interval_s:
            watchdog.add_check("the referee loop turns",
                               lambda: rig.loop_turned_within(watchdog.ping_interval_s))
            watchdog.add_check("every input thread runs", rig.alive)
            watchdog.start()
    try:
        while not stop.is_set():
            if until is not None and time.monotonic() >= until:
                break
            if extra_alive is not None and not extra_alive():
                break
            stop.wait(0.25)
    finally:
        if watchdog is not None:
            watchdog.stop()
            if stopping:
                notifier.stopping()


def _run_real(config, args, display, recordings, stop, night, web=None):
    from .links.publisher import tournament_link
    from .shell.build import build_rig, real_backend
    rig = build_rig(config, real_backend(config, display), recordings_dir=recordings,
                    key_help=_key_help(config), phones=web.pairing if web else None,
                    link_for=tournament_link)
    try:
        rig.start()
        _serve(rig, stop, night, web=web)
    finally:
        rig.stop()
        if display is not None:
            display.stop()
    return 0


def _key_help(config):
    """The museum's keys' help lines, with the config's bindings: the ``key_help`` of the
    ``keys`` part of the museum's game, the registry's first (Cleptómano)."""
    from dataclasses import asdict
    from .games import games, part
    keys = part(games()[0], "keys")
    return keys.key_help(asdict(config.keys), phones=config.web.enabled)


def _run_sim(config, args, display, recordings, stop, night, web=None):
    print("Simulator: the rig runs on simulated pins (not a Raspberry Pi, or --sim).",
          file=sys.stderr)
    # A later match of a game night is the table's own: the demo plays at the first only.
    screen = display is not None and not display.headless or night.legs > 1
    key_help = _key_help(config)
    if display is not None and not display.headless and not args.demo:
        from .core.msg import Msg       # the window plays the museum too (issue 30)
        key_help += (Msg("rig.keys.museum_window"),)
    return simulator().run(config, display=display, screen=screen, recordings=recordings,
                           stop=stop, demo=args.demo, interactive=args.interactive,
                           serve=lambda rig, alive=None: _serve(rig, stop, night, alive, web),
                           key_help=key_help, phones=web.pairing if web else None)


def simulator():
    """The simulator backend, found through the ``cleptomano.backends`` entry point so that
    the rig package never imports the simulator package."""
    from importlib.metadata import entry_points
    for entry in entry_points(group="cleptomano.backends"):
        if entry.name == "sim":
            return entry.load()
    raise RigError("the simulator backend is not installed; run `make run` from the repo (it "
                   "installs the package with its simulator), or pass --real on a Raspberry Pi")


COMMANDS = {
    "run": cmd_run,
    "replay": cmd_replay,
    "check-wiring": cmd_check_wiring,
    "layout": cmd_layout,
    "screenshot": cmd_screenshot,
    "history": cmd_history,
    "audits": cmd_audits,
    "leaderboard": cmd_leaderboard,
    "phones": cmd_phones,
}

if __name__ == "__main__":
    sys.exit(main())
