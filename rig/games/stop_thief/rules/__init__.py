"""Stop Thief!: the rig as the game's electronic crime scanner (a pure core).

The thief is never on the board: the rig keeps it, moves it by the standard rules and says what
kind of space it entered; the table moves the investigators and plays the cards.

* :mod:`.board` -- the board as data (spaces, footprint paths, thief deck, money), its parser
  and its validator; the sample town is ``data/sample_town.toml`` (read by
  :mod:`rig.games.stop_thief.resources`);
* :mod:`.thief` -- the thief's movement, a pure function of (board, thief, draw), and its
  settings;
* :mod:`.events` -- commands (GetClue, ReplayClue, Arrest, EndTurn) and effects;
* :mod:`.rules` -- the game: ``new_game`` and ``step``;
* :mod:`.calls` -- effects in words; :mod:`.views` -- the screen's and the phones' views;
* :mod:`.recording` -- JSON Lines recordings and their replay.
"""
