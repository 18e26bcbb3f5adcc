"""The rig's other heist games, each a pure rules core of its own (one sub-package per game).

Cleptómano's core is the rest of :mod:`rig.core`; these games share its conventions, so one
shell can host any of them (record, replay, show on the screen and on the phones):

* **State** is frozen dataclasses; ``new_game(...)`` makes the first one from the game's
  settings (validated there, each error naming the value, what is allowed and the fix).
* **Commands** are frozen dataclasses carrying ``t`` (seconds since the recording began) and
  ``by`` (who sent it: a player's or a phone's name, or None).  ``step(state, command)`` returns
  ``(state, effects)``; a command the rulebook forbids raises
  :class:`~rig.core.errors.IllegalMove` with the reason, and the caller keeps its old state.
  Timed phases expose ``next_deadline(state)`` and advance on a ``Tick(t)`` command, as
  Cleptómano's turn timer does: nothing in a game reads a clock.
* **Chance** is seeded: the recording's header holds the seed, and the n-th draw of a game is a
  pure function of (seed, n), so a replay rolls the same dice.
* **Effects** are structured values (what happened, never sentences); the game's ``calls``
  module turns them into words, in one place.
* **Views**: ``public_view(state)`` is what the table's screen may show (never a secret);
  ``player_view(state, player)`` adds what that player's own phone may show.  Both are
  JSON-ready dicts.
* **Recordings** are JSON Lines like Cleptómano's: a header ``{"recording": GAME, "version":
  1, ...settings, "seed": N}`` then one command a line; ``replay_lines(lines)`` re-plays them
  and returns the result as a JSON-ready dict, raising :class:`~rig.core.errors.RecordingError`
  naming the line for bad input.
"""
