"""Stop Thief! boards from files: a board an owner typed in (the packaged sample town is the
game's resource, :mod:`rig.games.stop_thief.resources`, named here too for the shell's readers).

The core parses text (:func:`rig.games.stop_thief.rules.board.parse_board`); this module only
reads it, choosing TOML or JSON by the file's suffix, and names the file in every error.
"""

from pathlib import Path

from ..core.errors import ConfigError
from ..games.stop_thief.resources import SAMPLE_TOWN, sample_town, sample_town_text  # noqa: F401
from ..games.stop_thief.rules.board import BoardError, parse_board
from . import files

_FORMATS = {".toml": "toml", ".json": "json"}


def read_board(path):
    """The board in the file ``path`` (``.toml`` or ``.json``); raises ConfigError (a
    BoardError for a board that cannot be played) naming the file."""
    path = Path(path)
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ConfigError("a board file ends in .toml or .json; rename it or convert it",
                          path=str(path))
    try:
        text = files.read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError("cannot read the board (%s); check the path and that it is UTF-8 text"
                          % (getattr(exc, "strerror", None) or exc), path=str(path)) from None
    try:
        return parse_board(text, fmt)
    except BoardError as exc:
        raise BoardError(exc.problems, path=str(path)) from None
