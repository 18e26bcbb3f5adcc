"""A tournament of simulated rigs on a real broker: the tests' (tests/test_tournament_broker.py)
and ``make bench --only tournament``'s.

The matches are the soak's random legal play: recordings the soak made (``tests/recordings/soak``,
or fresh ones on other seeds, :func:`soak_matches`).  Two kinds of rig play them:

* :class:`SimRig`, a whole rig (:class:`sim.table.SimulatedTable`, every thread, its tournament
  link on) that performs each match line by line on the table in virtual time, so the rig
  referees it live and writes its own recording.  One table per match: it starts, plays the
  match and stops (which closes it), or is killed mid-match and restarted from the same
  recordings, as a power cut would leave it.
* :class:`LightRig`, the rig as the tournament sees it: its recording session and its link
  (built as :func:`rig.shell.build.build_rig` builds them), writing the match's lines as the
  referee would and making them durable at each command.  A tenth of the cost, so twenty of
  them fit in ``make test``.
"""

import contextlib
import dataclasses
import json
import tempfile
import time
from pathlib import Path

from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules.events import InputChange
from rig.games.cleptomano.rules.tournament import parse_broker
from rig.links.publisher import tournament_link
from rig.shell.config import TournamentConfig
from rig.shell.session import RecordingSession

from .table import SimulatedTable
from .tools.soak import Soak, soak_config

LIBRARY = Path(__file__).resolve().parents[1] / "tests" / "recordings" / "soak"


def library(directory=LIBRARY):
    """The recordings of ``directory`` as lists of JSON objects (header first), by name."""
    return [[json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            for path in sorted(Path(directory).glob("*.jsonl"))]


#: The soak's recordings, in order (the tournament tests' matches).
SOAK = sorted(LIBRARY.glob("*.jsonl"))


def tournament_copy(src, directory, rig, match_id, rename=None):
    """``src`` as rig ``rig`` recorded it (its header names the rig), as ``match_id``;
    ``rename`` maps players to other spellings (header and choices)."""
    lines = src.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["rig"] = rig
    text = "\n".join([json.dumps(header)] + lines[1:]) + "\n"
    for old, new in (rename or {}).items():
        text = text.replace('"%s"' % old, '"%s"' % new)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (match_id + ".jsonl")
    path.write_text(text, encoding="utf-8")
    return path


def soak_matches(seed, turns, directory=None):
    """The matches of a soak run of ``turns`` turns on ``seed`` (its crashes included), as
    :func:`library` gives them; only those the soak played to their end."""
    keep = contextlib.nullcontext(directory)
    with tempfile.TemporaryDirectory() if directory is None else keep as out:
        Soak(turns=turns, seed=seed, directory=out).run()
        matches = library(out)
    return [m for m in matches if any("end" in obj for obj in m)
            and not any("restart" in obj for obj in m)]


def rig_config(broker_url, rig_id, password, ca_file=None):
    """The soak's configuration with a ``[tournament]`` for ``rig_id`` (its own broker user;
    ``ca_file`` for an mqtts:// broker)."""
    return dataclasses.replace(soak_config(), tournament=TournamentConfig(
        broker=parse_broker(broker_url), rig_id=rig_id, username=rig_id, password=password,
        ca_file=ca_file))


class SimRig:
    """One table of the tournament, its recordings in ``directory``."""

    def __init__(self, rig_id, directory, broker_url, password):
        self.rig_id = rig_id
        self.dir = Path(directory)
        self.config = rig_config(broker_url, rig_id, password)
        self.played = 0
        self.closed_at = {}          # match id -> time.monotonic() when its table stopped
        self.table = None

    def _table(self, header, resume):
        return SimulatedTable(self.config, recordings_dir=self.dir, players=header.players,
                              level=header.level, first_thief=header.first_thief,
                              resume=resume)

    def play(self, match, kill_at=None):
        """Play ``match`` (a recording's JSON objects); ``kill_at``: kill the rig after that
        many of its lines and restart it, which resumes the match; it is then closed
        unfinished.  Returns the match id of the recording the rig wrote."""
        header = recording.parse_header(match[0])
        lines = match[1:]
        table = self.table = self._table(header, resume=False).start()
        path = table.rig.recording_path
        if kill_at is not None:
            table.play(lines[:kill_at])
            table.crash()
            table = self.table = self._table(header, resume=True).start()
        else:
            table.play(lines)
        table.stop()
        self.table = None
        self.played += 1
        match_id = Path(path).stem
        self.closed_at[match_id] = time.monotonic()
        return match_id


class LightRig:
    """A rig's recording session and tournament link, its recordings in ``directory``: started
    once, it plays match after match (:meth:`play`) until :meth:`stop`."""

    def __init__(self, rig_id, directory, broker_url, password, ca_file=None):
        self.rig_id = rig_id
        self.dir = Path(directory)
        self.config = rig_config(broker_url, rig_id, password, ca_file).tournament
        self.played = 0
        self.closed_at = {}
        self.session = self.link = None

    def start(self, connected_within_s=0.0):
        """Start; ``connected_within_s``: then wait (at most that long) for the broker, as a
        table does before its first match (a clean stop waits for acknowledgements only while
        connected)."""
        self.session = RecordingSession(self.dir)
        self.session.prepare()
        self.link = tournament_link(self.config, self.dir, self.session)
        self.session.start_sync()
        self.link.start()
        deadline = time.monotonic() + connected_within_s
        while not self.link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        return self

    def stop(self, clean=True):
        """Stop as the rig does (``clean``: its link publishes what is left), or be killed."""
        if not clean:
            self.session.abandon()
        self.session.stop_sync()
        self.link.stop(clean=clean)

    def play(self, match, kill_at=None, hold=None):
        """Write ``match`` (a recording's JSON objects) as this rig's; ``kill_at``: kill the
        rig after that many lines and start it again, which resumes the match and closes it
        there.  ``hold``: ``(n, wait)``, ``wait()`` is called once the first ``n`` lines are
        asked to be made durable (``n`` past the last: all of them, the match not yet closed).
        Returns the match id."""
        header, items = recording.parse_lines([json.dumps(obj) for obj in match])
        header = dataclasses.replace(header, rig=self.rig_id)
        items = [item for _, item in items if not recording.ends_match(item)]
        path = self.session.open(header)
        for n, item in enumerate(items + [None]):
            if hold is not None and n == min(hold[0], len(items)):
                self.session.request_sync()
                hold[1]()
            if item is None:
                break
            if n == kill_at:
                self.stop(clean=False)
                self.start()
                items = [self.session.resume(header.players, header.level).restart]
                break
            self.session.record(item)
            if not isinstance(item, InputChange):
                self.session.request_sync()
        self.session.close(items[-1].t if items else 0.0)
        self.played += 1
        self.closed_at[path.stem] = time.monotonic()
        return path.stem


def forged_result(header, match_id, rig, thief="Mallory"):
    """A match message a table's login could send with no recording: ``thief`` in the first
    seat of ``header``'s players, escaping with 7 points in each of three rounds (the
    leaderboard must refuse it: below the embedding limit, a result comes with its recording)."""
    header = dict(header, players=[thief, header["players"][1]], first_thief=thief)
    return {"match": match_id, "rig": rig, "closed": True, "bytes": 900, "sha256": "a" * 64,
            "header": header,
            "replay": {"players": header["players"],
                       "turns": [{"round": n, "thief": thief, "outcome": "escaped", "score": 7}
                                 for n in (1, 2, 3)],
                       "rounds": [], "round_wins": {}, "tiebreak": None, "winner": None,
                       "title": None}}
