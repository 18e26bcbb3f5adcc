"""Stop Thief!'s boards: the packaged sample town, Port Pilfer (``rules/data``), and a board an
owner typed into a file (``[stop_thief] board``).

The rules parse text (:func:`rig.games.stop_thief.rules.board.parse_board`); this module only
reads it, choosing TOML or JSON by the file's suffix, and names the file in every error (the
file is read as every file a config names is: :func:`rig.files.read_text`, a regular file
of bounded size).
"""

from importlib import resources
from pathlib import Path

from ...core.errors import ConfigError
from ... import files
from .rules.board import BoardError, parse_board

SAMPLE_TOWN = "sample_town.toml"


def sample_town_text():
    """The sample town's TOML text, as packaged with the rig."""
    return resources.files("rig.games.stop_thief.rules").joinpath(
        "data", SAMPLE_TOWN).read_text(encoding="utf-8")


def sample_town():
    """The sample town, Port Pilfer."""
    return parse_board(sample_town_text(), "toml")


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
