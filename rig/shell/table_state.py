"""The table's state on disk: ``table.json`` where the rig keeps its recordings.

The pure part (the value, its JSON form, the reading of a bad file) is
:mod:`rig.core.table_state`; this is the I/O.  A choice is saved at once and atomically (a
temporary file written and fsync'ed, renamed over the old one, the folder fsync'ed), so a crash
or a power cut leaves the old state or the new, never half of one.  A file that cannot be read
or used never stops the rig: it is named in the log and ``rig.toml``'s defaults are used.
"""

import logging
import os
import threading
from dataclasses import replace
from pathlib import Path

from ..core.errors import ConfigError
from ..core.service import SOUND_DEFAULTS, detect_parts, sound_levels
from ..core.table_state import TableState, parse_state, to_json

log = logging.getLogger("cleptomano")

FILE_NAME = "table.json"


class TableMemory:
    """The evening's choices (:attr:`state`), saved to ``folder/table.json`` on each change.
    Thread-safe: the referee thread and the main thread both choose."""

    def __init__(self, folder, state=None):
        self.path = Path(folder) / FILE_NAME
        self.state = state if state is not None else TableState()
        self._lock = threading.Lock()

    @classmethod
    def load(cls, folder):
        """The state kept in ``folder`` (none kept, or unreadable: the defaults, logged)."""
        memory = cls(folder)
        try:
            raw = memory.path.read_bytes()
        except FileNotFoundError:
            return memory
        except OSError as exc:
            log.warning("Table's state: %s cannot be read (%s); the rig.toml defaults are "
                        "used.", memory.path, exc.strerror or exc)
            return memory
        state, problems = parse_state(raw, where=str(memory.path))
        for problem in problems:
            log.warning("Table's state: %s", problem)
        memory.state = state
        return memory

    def choose(self, **choices):
        """The table chose ``choices`` (``language="es"``, ``players=(...)``...): kept and
        saved.  A choice the state refuses, or a disk that refuses the file, is logged; the
        rig goes on."""
        with self._lock:
            try:
                state = self.state.chose(**choices)
            except ConfigError as exc:
                log.warning("Table's state: %s; not kept.", exc)
                return self.state
            if state == self.state:
                return state
            self.state = state
            try:
                save_atomically(self.path, to_json(state))
            except OSError as exc:
                log.warning("Table's state: %s cannot be written (%s); the choice holds until "
                            "the rig stops.", self.path, exc.strerror or exc)
            return state

    def sources(self):
        return self.state.sources()

    def config(self, config):
        """``config`` with the table's choices over its defaults (``[table] language``,
        ``[sound] voice``, ``[match]`` players and level)."""
        state = self.state
        if state.language is not None:
            config = replace(config, table=replace(config.table, language=state.language))
        if state.voice is not None and hasattr(config, "sound"):
            config = replace(config, sound=replace(config.sound, voice=state.voice))
        config = tuned_config(config, state.tuning or ())
        match = getattr(config, "match", None)
        if match is None:
            return config
        changes = {}
        if state.players is not None:
            changes["players"] = state.players
            if match.first_thief not in state.players and hasattr(match, "first_thief"):
                changes["first_thief"] = state.players[0]
        level = _level(match.level, state)
        if level is not None:
            changes["level"] = level
        return replace(config, match=replace(match, **changes)) if changes else config


def tuned_config(config, tuning):
    """``config`` with the service mode's ``tuning`` (issue 31) over its factory values: each
    rod's merge window and relic's tilt threshold in ``[detect]``, the voice's loudness, on/off
    and Spanish voice in ``[sound]`` (the effects' loudness goes to the display:
    :func:`effects_volume`)."""
    if not tuning:
        return config
    merge, tilt = detect_parts(tuning)
    factory = config.detect
    merge = tuple((name, s) for name, s in merge if s != factory.merge_window_s)
    config = replace(config, detect=replace(factory, merge_by_contact=merge,
                                            tipped_by_relic=tilt))
    if hasattr(config, "sound") and any(k in SOUND_DEFAULTS for k, _ in tuning):
        values = dict(voice=config.sound.voice, **{"volume.voice": config.sound.voice_volume,
                                                  "voice.es": config.sound.voice_es})
        values.update(tuning)
        _, voice_volume, voice, spanish = sound_levels(values)
        config = replace(config, sound=replace(config.sound, voice=voice,
                                               voice_volume=voice_volume, voice_es=spanish))
    return config


def effects_volume(tuning):
    """The display's sounds' loudness (0 to 1) the service mode's ``tuning`` sets (master x
    effects; the display's default when the table set none)."""
    return sound_levels(dict(tuning or ()))[0]


def _level(default, state):
    """Cleptómano's level from the state's difficulty, timer and layout over ``default``."""
    if state.level is None and state.layout is None:
        return None
    fields = {}
    if state.level is not None:
        fields["name"] = state.level.difficulty
        fields["timer_s"] = state.level.timer_s
    if state.layout is not None:
        fields["lasers"] = state.layout.lasers
        fields["corridor"] = state.layout.corridor
    try:
        return replace(default, **fields)
    except (TypeError, ValueError):
        return None


def save_atomically(path, text):
    """Write ``text`` to ``path`` so a crash leaves the old file or the new one: a temporary
    file beside it, fsync'ed, renamed over it, and the folder fsync'ed (the rename kept)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(".%s.%d.tmp" % (path.name, os.getpid()))
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
