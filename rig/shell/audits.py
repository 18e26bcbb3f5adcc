"""The audits' files: every recording in a folder read, its game's part taken
(``GAME.audit``), summed by :mod:`rig.core.audits` (docs/contracts/cli.md).

The recordings are the fsynced truth: nothing else is kept, so the audits are what the
recordings say after any crash.  A recording that cannot be read is named (file, line, what is
wrong) and left out; every other one is counted.
"""

import csv
import io
import logging
import re
import threading
from datetime import date, datetime, timedelta
from pathlib import Path

from ..core import audits as core
from ..core.errors import ConfigError, RecordingError
from . import storage

log = logging.getLogger(__name__)

#: The sensor health reads the newest recordings only (a night is a few dozen): the rig
#: judges it in the background at its start, never holding up a match.
HEALTH_RECORDINGS = 100

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_since(text):
    """``--since``'s ``YYYY-MM-DD`` as a ``date``; one ConfigError naming the value."""
    try:
        if not isinstance(text, str) or not _DATE.fullmatch(text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise ConfigError("--since %r is not a date; give a day as YYYY-MM-DD (e.g. 2026-12-01): "
                          "the audits count the recordings from that day on" % (text,),
                          key="--since") from None


def recordings(directory, since=None, newest=None):
    """``(path, game, day, start)`` of every recording in ``directory`` from ``since`` on, in
    the order they were made (by the stamp in their names; a file without one last, by
    name); only the ``newest`` ones when given."""
    from ..games import games
    found = []
    for g in games():
        for path in Path(directory).glob("%s-*.jsonl" % g.prefix):
            if not path.is_file():
                continue
            st = storage.stamp(path, g.prefix)
            day = start = None
            if st is not None:
                d, s, _ = st
                day = "%s-%s-%s" % (d[:4], d[4:6], d[6:])
                start = "%sT%s:%s:%s" % (day, s[:2], s[2:4], s[4:])
                if since is not None and date.fromisoformat(day) < since:
                    continue
            elif since is not None:
                continue
            found.append(((st is None, st or (), path.name), path, g, day, start))
    found = [(p, g, d, s) for _, p, g, d, s in sorted(found, key=lambda x: x[0])]
    return found[-newest:] if newest else found


def read_parts(directory, since=None, warnings=None, say=str, newest=None):
    """Each recording's part (see :func:`rig.core.audits.total`) and the list of those that
    could not be read (``{"file", "error"}``).  ``warnings`` (a list) is told of torn last
    lines."""
    from .session import cut_off
    parts, unreadable = [], []
    for path, game, day, start in recordings(directory, since, newest):
        torn = []
        try:
            audit = game.audit(storage.read_lines(path, torn), path)
        except RecordingError as exc:
            unreadable.append({"file": path.name, "error": say(exc)})
            continue
        if warnings is not None:
            warnings.extend(torn)
        closed = audit["matches"]["closed"]
        seen = {}
        if start is not None:
            began = datetime.strptime(start, "%Y-%m-%dT%H:%M:%S")
            seen = {name: (began + timedelta(seconds=int(t))).strftime("%Y-%m-%dT%H:%M:%S")
                    for name, t in audit["last_t"].items()}
        parts.append({"file": path.name, "game": game.name, "day": day, "seen": seen,
                      "audit": audit,
                      "cut_off": (not closed) if closed is not None else cut_off(game, path)})
    return parts, unreadable


def audits(directory, since=None, reinits=0, warnings=None, say=str, newest=None, **health):
    """The audits of ``directory`` as ``--json`` prints them (docs/contracts/cli.md)."""
    parts, unreadable = read_parts(directory, since, warnings, say, newest)
    total = core.total(parts)
    out = core.public(total, core.health(total, reinits=reinits, **health))
    out["since"] = since.isoformat() if since else None
    out["unreadable"] = unreadable
    return out


def health_lines(directory, **settings):
    """The sensor health's warnings for the ready screen and the log, between matches: each
    warning's English (with its fix); a recording that cannot be read is left out here."""
    return [w["text"] for w in audits(directory, **settings)["health"]]


def said(warning):
    """A health warning (one of ``--json``'s ``health``) as the ready screen says it in the
    table's language: a code of the rig's catalog (``rig.health.<code>``), naming the input
    and the count, with the fix."""
    from ..core.msg import N_, Msg
    code, name, n = warning["code"], warning["input"], warning["count"]
    if code == "rod_silent":
        return Msg("rig.health.rod_silent", rod=int(name.rsplit(".", 1)[1]), n=n)
    if code == "relic_silent":
        return Msg("rig.health.relic_silent", relic=int(name.rsplit(".", 1)[1]), n=n)
    if code == "glitch_jump":
        return Msg("rig.health.glitch_jump", input=name, n=n)
    return Msg({"hub_lost": N_("rig.health.hub_lost"),
                "tof_reinit": N_("rig.health.tof_reinit")}[code], n=n)


class HealthWatch:
    """The sensor health as the running rig judges it, between matches, never mid-turn: its
    host calls :meth:`check` when no turn runs (the rig's start, a match closed); the
    recordings are read on a thread of its own, so no match waits for it.  :attr:`warnings`
    is each warning's English, with its fix, logged once when new; :attr:`said` the same as
    codes (:func:`said`), which the ready screen shows in the table's language.
    ``reinits()``: the hand sensor's re-initialisations the recordings do not hold (the
    running :class:`rig.table.tof.HandSensor`'s ``reinits``)."""

    def __init__(self, directory, reinits=lambda: 0, newest=HEALTH_RECORDINGS, **settings):
        self.directory = Path(directory)
        self._reinits = reinits
        self._newest = newest
        self._settings = settings
        self.warnings = ()
        self.said = ()
        self._logged = set()
        self._thread = None

    def check_now(self):
        """Judge the health now, on this thread; returns the warnings."""
        try:
            judged = audits(self.directory, reinits=self._reinits(), newest=self._newest,
                            **self._settings)["health"]
        except (OSError, ConfigError) as exc:      # the folder gone: no judgement, no crash
            log.warning("sensor health not judged: %s", exc)
            return self.warnings
        found = tuple(w["text"] for w in judged)
        for text in found:
            if text not in self._logged:
                log.warning("sensor health: %s", text)
        self._logged = set(found)
        self.said = tuple(said(w) for w in judged)
        self.warnings = found
        return found

    def check(self):
        """Judge the health on a thread (one at a time); returns at once."""
        if self._thread is not None and self._thread.is_alive():
            return self
        self._thread = threading.Thread(target=self.check_now, name="sensor-health",
                                        daemon=True)
        self._thread.start()
        return self

    def join(self, timeout_s=30.0):
        if self._thread is not None:
            self._thread.join(timeout_s)


CSV_FIELDS = ("section", "name", "count", "value")


def to_csv(out):
    """The audits as CSV rows ``section,name,count,value`` (one count a row)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for game, counts in out["matches"].items():
        for key, n in counts.items():
            w.writerow(("matches", game, key, n))
    for name, counts in out["touches"].items():
        for key, n in counts.items():
            w.writerow(("touches", name, key, n))
    for level, counts in out["levels"].items():
        for key, n in counts.items():
            w.writerow(("levels", level, key, n))
    for night, n in out["nights"].items():
        w.writerow(("nights", night, "matches", n))
    for name, when in out["last_seen"].items():
        w.writerow(("last_seen", name, "at", when))
    for device, counts in out["devices"].items():
        for key, n in counts.items():
            w.writerow(("devices", device, key, n))
    for key, counts in out.get("overrides", {}).items():     # ("overrides", "void", "kinds", 2)
        for name, n in counts.items():
            w.writerow(("overrides", _cell(name), key, n))
    w.writerow(("rig", "restarts", "count", out["restarts"]))
    w.writerow(("rig", "uptime_s", "seconds", out["uptime_s"]))
    for warning in out["health"]:
        w.writerow(("health", warning["input"], warning["code"], warning["text"]))
    return buf.getvalue()


def _cell(name):
    """A name a phone chose (who made an override) as a CSV cell a spreadsheet shows as text:
    one that starts like a formula (``=``, ``+``, ``-``, ``@``) gets a ``'`` before it."""
    return "'" + name if name[:1] in ("=", "+", "-", "@") else name


def text(out):
    """The audits in words for the terminal (English: the builder's)."""
    lines = []
    since = " since %s" % out["since"] if out["since"] else ""
    lines.append("Audits of %d recording%s%s" % (out["recordings"],
                                               "" if out["recordings"] == 1 else "s", since))
    lines.append("Matches:")
    for game, c in out["matches"].items():
        lines.append("  %-20s started %d, finished %d, abandoned %d, running %d"
                     % (game, c["started"], c["finished"], c["abandoned"], c["running"]))
    lines.append("Touches:")
    for name, c in out["touches"].items():
        lines.append("  %-12s %s" % (name, ", ".join("%s %d" % kv for kv in c.items())))
    if out["levels"]:
        lines.append("Thieves:")
        for level, c in out["levels"].items():
            lines.append("  %-12s caught %d, escaped %d" % (level, c["caught"], c["escaped"]))
    for device, c in out["devices"].items():
        lines.append("Device %-5s lost %d, back %d, re-initialised %d"
                     % (device, c.get("lost", 0), c.get("back", 0), c.get("reinit", 0)))
    over = out.get("overrides") or {}
    if any(over.get("kinds", {}).values()):
        lines.append("Overrides:")
        for key, label in (("kinds", "kind"), ("reasons", "why"), ("by", "by")):
            lines.append("  %-12s %s" % (label, ", ".join(
                "%s %d" % kv for kv in over.get(key, {}).items() if kv[1])))
    lines.append("Restarts: %d; recorded time: %.0f s" % (out["restarts"], out["uptime_s"]))
    if out["last_seen"]:
        lines.append("Last seen:")
        for name, when in out["last_seen"].items():
            lines.append("  %-12s %s" % (name, when))
    lines.append("Health:" + ("" if out["health"] else " no warning"))
    for w in out["health"]:
        lines.append("  " + w["text"])
    for bad in out["unreadable"]:
        lines.append("Unreadable: %s: %s" % (bad["file"], bad["error"]))
    return "\n".join(lines)
