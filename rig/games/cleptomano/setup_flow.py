"""The set-up screen's keys: a new match (tonight's players, the level, the first thief, a check
of the laser layout), the wiring check, and the layout check on its own.

Everything is typed on the guard's keyboard or a numeric keypad: digits pick, Enter goes on,
Esc (or the keypad's Backspace) deletes what was typed here or goes back a step.  Only a new
player's name needs letters (a keyboard; the phone companion will type them too).  Pure: keys
in, a :class:`SetupView` to draw, and at the end one command out (a
:class:`~rig.games.cleptomano.rules.events.NewMatch`, or the wiring check's start).  Whether the rig
takes the command is the referee's call, as for every key.
"""

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from ...core.gamekit import SetLanguage
from ...core.msg import Msg, N_
from ...core.names import name_problem, normal, same_name_key
from ...words import CHOICES
from .rules.calls import corridor_word, level_name, level_words
from ...core.errors import RulesError
from .rules.events import NewMatch
from .rules.layout import FIRST_ADDED, TABLE, End, Laser, format_layout, validate_layout
from .rules.levels import CORRIDORS, PRESETS, Level, check_lasers, check_timer, make_level
from .rules.engine import MAX_NAME_CHARS, MAX_PLAYERS
from .rules.wiringcheck import START, CheckWiring

PER_PAGE = 9                       # names a digit can pick on one page (0 turns the page)
MAX_TIMER_DIGITS = 4
DIFFICULTIES = ("easy", "normal", "hard")
#: The digit for each end of a laser, as the layout screen lists them.
END_KEYS = {1: End("left", "I"), 2: End("left", "II"), 3: End("left", "III"),
            4: End("right", "I"), 5: End("right", "II"), 6: End("right", "III"),
            7: End("left", TABLE), 8: End("right", TABLE)}
_MENU = (("1", N_("cleptomano.setup.menu.new_match"), N_("cleptomano.setup.menu.new_match_detail")),
         ("2", N_("cleptomano.setup.menu.wiring"), N_("cleptomano.setup.menu.wiring_detail")),
         ("3", N_("cleptomano.setup.menu.layout"), N_("cleptomano.setup.menu.layout_detail")),
         ("4", N_("cleptomano.setup.menu.language"), N_("cleptomano.setup.menu.language_detail")))


@dataclass(frozen=True)
class Choice:
    """One line to pick from: its key, its words (a message, or a name as typed), ``picked`` its
    place in the playing order (players), ``current`` the one Enter keeps."""
    key: str
    label: object
    detail: object = ""
    picked: Optional[int] = None
    current: bool = False


@dataclass(frozen=True)
class LayoutView:
    """The layout as typed so far: two ends per added laser (None: not typed yet), and what
    :func:`rig.games.cleptomano.rules.layout.validate_layout` says once all are typed."""
    lasers: int
    ends: Tuple[Optional[End], ...]
    problems: Tuple[str, ...] = ()

    @property
    def complete(self):
        return None not in self.ends

    @property
    def legal(self):
        return self.complete and not self.problems

    def declared(self):
        """The typed lasers, numbered from 4 (complete ones only)."""
        out = []
        for i in range(self.lasers):
            a, b = self.ends[2 * i], self.ends[2 * i + 1]
            if a is not None and b is not None:
                out.append(Laser(FIRST_ADDED + i, a, b))
        return out


@dataclass(frozen=True)
class SetupView:
    """What the set-up screen shows now: its words are messages (:class:`rig.core.msg.Msg`),
    said in the table's language when drawn."""
    title: object
    step: str = ""                   # "2/5" in the new match's steps
    question: object = ""
    choices: Tuple[Choice, ...] = ()
    field: Optional[str] = None      # what is being typed (a name, seconds)
    keys: Tuple[object, ...] = ()    # what the keys do on this page
    note: object = None              # the last refusal or verdict
    summary: Tuple[object, ...] = ()
    layout: Optional[LayoutView] = None
    faults: Tuple[str, ...] = ()


def _unique(names):
    seen, out = set(), []
    for name in names:
        if name_problem(name) is None and same_name_key(normal(name)) not in seen:
            seen.add(same_name_key(normal(name)))           # the one rule (rig.core.names)
            out.append(name)
    return out


def _level_of(name, timer_s, lasers, corridor):
    """The board's level as a Level (a preset when it is one)."""
    preset = PRESETS.get(name)
    if preset is not None and (preset.timer_s, preset.lasers, preset.corridor) == (
            timer_s, lasers, corridor):
        return preset
    try:
        return make_level("normal", timer_s=timer_s, lasers=lasers, corridor=corridor)
    except RulesError:
        return PRESETS["normal"]


def _end_words(end):
    """An end as the layout screen lists it: ``left wall II``, ``table, by right``."""
    left = end.wall == "left"
    if end.on_table:
        return Msg(N_("cleptomano.layout.end.table_left") if left
                   else N_("cleptomano.layout.end.table_right"))
    return Msg(N_("cleptomano.layout.end.left") if left else N_("cleptomano.layout.end.right"),
               zone=str(end.zone))


def _error(exc):
    """A refusal's words: its message, or (a builder's error) its text."""
    return exc.msg if getattr(exc, "msg", None) is not None else str(exc)


def _typed_char(key, text):
    """The character a key types into a name, or None (digits and letters, space, - ' .)."""
    if text and len(text) == 1 and text.isprintable() and (text.isalnum() or text in " -'."):
        return text
    if len(key) == 1 and (key.isalnum() or key in "-'."):
        return key
    if key == "space":
        return " "
    if len(key) == 3 and key.startswith("[") and key.endswith("]") and key[1].isdigit():
        return key[1]
    return None


class SetupFlow:
    """One visit to the set-up screen.  Built from what the board shows (this match's players,
    the roster of recent names, the level); ``feed(key, text, action, digit)`` takes one key
    and returns ``(command or None, closed)``; :meth:`view` is what to draw."""

    def __init__(self, players=(), roster=(), level=None, confirm="Enter", cancel="Esc",
                 language="en", sources=()):
        self.roster = _unique(list(players) + list(roster))
        self.chosen = _unique(players)[:MAX_PLAYERS]
        self.level = level or PRESETS["normal"]
        self.match_lasers = self.level.lasers
        self.confirm_name, self.cancel_name = confirm, cancel
        self.page = "menu"
        self.roster_page = 0
        self.typed = ""
        self.first = 0
        self.layout = []            # End per typed digit
        self.layout_only = False
        self.note = None
        self.custom = None          # the custom level being typed: [timer_s, lasers, corridor]
        self.language = language if language in CHOICES else "en"   # the screen's now
        self.sources = dict(sources)  # choice -> "table" or "rig.toml" (rig.core.table_state)

    @classmethod
    def from_board(cls, board, confirm="Enter", cancel="Esc"):
        """The flow for a :class:`~rig.games.cleptomano.rules.view.Scoreboard`: its players ticked,
        its roster offered, its level chosen."""
        if board is None:
            return cls(confirm=confirm, cancel=cancel)
        return cls(board.players, board.roster,
                   _level_of(board.level, board.timer_s, board.lasers, board.corridor),
                   confirm, cancel, getattr(board, "language", "en"),
                   getattr(board, "table_choices", ()))

    # --- keys ------------------------------------------------------------------------------
    def feed(self, key, text=None, action=None, digit=None):
        """One key: ``key`` its name, ``text`` what it types (None when unknown), ``action``
        the guard's key action it is bound to ("confirm", "cancel", ...) and ``digit`` the
        digit it stands for.  Returns ``(command or None, closed)``."""
        self.note = None
        handler = getattr(self, "_on_" + self.page)
        return handler(key, text, action, digit)

    def _go(self, page):
        self.page = page
        return None, False

    def _on_menu(self, key, text, action, digit):
        if action == "cancel":
            return None, True
        if digit == 1:
            self.layout_only, self.layout = False, []
            return self._go("players")
        if digit == 2:
            return CheckWiring(0.0, START), True
        if digit == 3:
            self.layout_only, self.layout = True, []
            return self._go("layout")
        if digit == 4:
            return self._go("language")
        return None, False

    def _on_language(self, key, text, action, digit):
        if action in ("cancel", "confirm"):
            return self._go("menu")
        langs = tuple(CHOICES)
        if digit is not None and 1 <= digit <= len(langs):
            self.page = "menu"
            self.language = langs[digit - 1]
            return SetLanguage(0.0, self.language), False
        return None, False

    # players: digits pick in playing order, letters start a new name
    def _page_names(self):
        start = self.roster_page * PER_PAGE
        return self.roster[start:start + PER_PAGE]

    def _pages(self):
        return max(1, -(-len(self.roster) // PER_PAGE))

    def _on_players(self, key, text, action, digit):
        if action == "cancel":
            return self._go("menu")
        if action == "confirm":
            if not self.chosen:
                self.note = Msg("cleptomano.setup.note.pick_one")
                return None, False
            self.first = min(self.first, len(self.chosen) - 1)
            return self._go("level")
        if digit == 0:
            self.roster_page = (self.roster_page + 1) % self._pages()
            return None, False
        if digit is not None:
            names = self._page_names()
            if not 1 <= digit <= len(names):
                self.note = Msg("cleptomano.setup.note.no_name", number=digit)
                return None, False
            self._toggle(names[digit - 1])
            return None, False
        char = _typed_char(key, text)
        if char is not None and char.isalpha():       # a letter starts a new name
            self.typed = char.upper()
            return self._go("name")
        return None, False

    def _toggle(self, name):
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) >= MAX_PLAYERS:
            self.note = Msg("cleptomano.setup.note.too_many", n=MAX_PLAYERS)
        else:
            self.chosen.append(name)

    def _on_name(self, key, text, action, digit):
        if action == "confirm":
            return self._add_name()
        if key == "escape":
            self.typed = ""
            return self._go("players")
        if action == "cancel" or key == "backspace":
            self.typed = self.typed[:-1]
            return self._go("players" if not self.typed else "name")
        char = _typed_char(key, text)
        if char is None:
            return None, False
        if len(self.typed) >= MAX_NAME_CHARS:
            self.note = Msg("cleptomano.setup.note.name_long", n=MAX_NAME_CHARS)
            return None, False
        if not self.typed or self.typed.endswith(" "):
            char = char.upper()
        self.typed += char
        return None, False

    def _add_name(self):
        name = " ".join(self.typed.split())
        self.typed = ""
        self.page = "players"
        if not name:
            return None, False
        known = {n.casefold(): n for n in self.roster}
        if name.casefold() in known:
            name = known[name.casefold()]
            if name in self.chosen:
                self.note = Msg("cleptomano.setup.note.already_playing", name=name)
                return None, False
        else:
            self.roster.insert(0, name)
            self.roster_page = 0
        self._toggle(name)
        return None, False

    # the level: a preset, or custom (time limit, lasers, corridor)
    def _on_level(self, key, text, action, digit):
        if action == "cancel":
            return self._go("players")
        if action == "confirm":
            return self._after_level()
        if digit is not None and 1 <= digit <= len(DIFFICULTIES):
            self.level = PRESETS[DIFFICULTIES[digit - 1]]
            return self._after_level()
        if digit == 4:
            self.custom = [self.level.timer_s, self.level.lasers, self.level.corridor]
            self.typed = ""
            return self._go("timer")
        return None, False

    def _after_level(self):
        return self._go("first" if len(self.chosen) > 1 else "layout")

    def _on_timer(self, key, text, action, digit):
        if action == "cancel":
            if self.typed:
                self.typed = self.typed[:-1]
                return None, False
            return self._go("level")
        if action == "confirm":
            if self.typed:
                seconds = int(self.typed)
                try:
                    self.custom[0] = check_timer(seconds) if seconds else None
                except RulesError as exc:
                    self.note = _error(exc)
                    return None, False
            self.typed = ""
            return self._go("lasers")
        if digit is not None and len(self.typed) < MAX_TIMER_DIGITS:
            self.typed = (self.typed + str(digit)).lstrip("0") or "0"
        return None, False

    def _on_lasers(self, key, text, action, digit):
        if action == "cancel":
            return self._go("timer")
        if action == "confirm":
            return self._go("corridor")
        if digit is not None:
            try:
                self.custom[1] = check_lasers(digit)
            except RulesError as exc:
                self.note = _error(exc)
                return None, False
            return self._go("corridor")
        return None, False

    def _on_corridor(self, key, text, action, digit):
        if action == "cancel":
            return self._go("lasers")
        if digit is not None and 1 <= digit <= len(CORRIDORS):
            self.custom[2] = CORRIDORS[digit - 1]
        elif action != "confirm":
            return None, False
        timer_s, lasers, corridor = self.custom
        self.level = make_level("normal", timer_s=timer_s, lasers=lasers, corridor=corridor)
        return self._after_level()

    def _on_first(self, key, text, action, digit):
        if action == "cancel":
            return self._go("level")
        if digit is not None:
            if not 1 <= digit <= len(self.chosen):
                self.note = Msg("cleptomano.setup.note.no_player", number=digit,
                                most=len(self.chosen))
                return None, False
            self.first = digit - 1
        elif action != "confirm":
            return None, False
        return self._go("layout")

    # the laser layout: two ends per added laser, one digit each
    def _layout_lasers(self):
        return self.match_lasers if self.layout_only else self.level.lasers

    def _on_layout(self, key, text, action, digit):
        if action == "cancel":
            if self.layout:
                self.layout.pop()
                return None, False
            if self.layout_only:
                return self._go("menu")
            return self._go("first" if len(self.chosen) > 1 else "level")
        view = self._layout_view()
        if action == "confirm":
            if not self.layout and not self.layout_only:
                return self._go("confirm")
            if not view.complete:
                laser = FIRST_ADDED + len(self.layout) // 2
                self.note = Msg(N_("cleptomano.setup.note.first_end") if len(self.layout) % 2 == 0
                                else N_("cleptomano.setup.note.second_end"), laser=laser)
                return None, False
            if view.problems:
                self.note = Msg("cleptomano.setup.note.move_lasers", key=self.cancel_name)
                return None, False
            if self.layout_only:
                self.note = Msg("cleptomano.setup.note.legal",
                                layout=format_layout(view.declared()))
                return None, False
            return self._go("confirm")
        if digit is not None:
            if digit not in END_KEYS:
                self.note = Msg("cleptomano.setup.note.ends")
            elif len(self.layout) < 2 * self._layout_lasers():
                self.layout.append(END_KEYS[digit])
        return None, False

    def _layout_view(self):
        lasers = self._layout_lasers()
        del self.layout[2 * lasers:]          # the level changed to fewer lasers
        ends = tuple(self.layout) + (None,) * (2 * lasers - len(self.layout))
        view = LayoutView(lasers, ends)
        if view.complete:
            view = replace(view, problems=tuple(validate_layout(view.declared(), lasers)))
        return view

    def _on_confirm(self, key, text, action, digit):
        if action == "cancel":
            return self._go("layout")
        if action != "confirm":
            return None, False
        return self.command(), True

    def command(self):
        """The :class:`NewMatch` the flow has set up (the guard's keypad sends it)."""
        level = self.level
        preset = PRESETS.get(level.name)
        if preset is not None and preset == level:
            return NewMatch(0.0, tuple(self.chosen), level.name,
                            first_thief=self.chosen[self.first])
        return NewMatch(0.0, tuple(self.chosen), "normal", level.timer_s, level.lasers,
                        level.corridor, self.chosen[self.first])

    # --- the screen ------------------------------------------------------------------------
    def view(self):
        make = getattr(self, "_view_" + self.page)
        return replace(make(), note=self.note)

    def _keys(self, *lines):
        """The keys' meanings: each ``(code, params)`` or a code, said with the guard's own
        Enter and cancel keys (``{enter}``, ``{cancel}``)."""
        out = []
        for line in lines:
            code, params = (line, {}) if isinstance(line, str) else line
            out.append(Msg(code, enter=self.confirm_name, cancel=self.cancel_name, **params))
        return tuple(out)

    def _steps(self, number, title):
        total = 5 if len(self.chosen) > 1 else 4
        if number > 3 and total == 4:
            number -= 1
        return Msg("cleptomano.setup.new_match", step=Msg(title)), "%d/%d" % (number, total)

    def _view_menu(self):
        return SetupView(Msg("cleptomano.setup.title"),
                         question=Msg("cleptomano.setup.question.menu"),
                         choices=tuple(Choice(k, Msg(label), Msg(detail))
                                       for k, label, detail in _MENU),
                         keys=self._keys((N_("cleptomano.setup.key.choose"), {"most": 4}),
                                         N_("cleptomano.setup.key.back_to_match")),
                         summary=self._sources_said())

    def _sources_said(self):
        """Each of the evening's choices and where it comes from: chosen at this table (kept
        through switches and restarts) or rig.toml's default (issue 30); none when the rig
        keeps no table's state."""
        if not self.sources:
            return ()

        def source(name):
            return Msg(N_("cleptomano.setup.source.table") if self.sources.get(name) == "table"
                       else N_("cleptomano.setup.source.default"))
        lines = [Msg("cleptomano.setup.source.language", value=CHOICES.get(self.language, ""),
                     source=source("language")),
                 Msg("cleptomano.setup.source.players", players=tuple(self.chosen),
                     source=source("players")),
                 Msg("cleptomano.setup.source.level", name=level_name(self.level.name),
                     source=source("level"))]
        return tuple(lines)

    def _view_language(self):
        choices = tuple(Choice(str(i + 1), name, current=lang == self.language)
                        for i, (lang, name) in enumerate(CHOICES.items()))
        return SetupView(Msg("cleptomano.setup.language_title"),
                         question=Msg("cleptomano.setup.question.language"), choices=choices,
                         keys=self._keys((N_("cleptomano.setup.key.choose"),
                                          {"most": len(CHOICES)}),
                                         N_("cleptomano.setup.key.back")))

    def _view_players(self):
        names = self._page_names()
        choices = tuple(Choice(str(i + 1), name,
                               picked=(self.chosen.index(name) + 1 if name in self.chosen
                                       else None))
                        for i, name in enumerate(names))
        pages = self._pages()
        title, step = self._steps(1, N_("cleptomano.setup.step.players"))
        question = Msg("cleptomano.setup.question.players", n=len(self.chosen))
        keys = [(N_("cleptomano.setup.key.pick"), {"most": max(1, len(names))}),
                N_("cleptomano.setup.key.letters"), N_("cleptomano.setup.key.next"),
                N_("cleptomano.setup.key.back")]
        if pages > 1:
            keys.insert(1, (N_("cleptomano.setup.key.more_names"),
                            {"page": self.roster_page + 1, "pages": pages}))
        return SetupView(title, step, question, choices, keys=self._keys(*keys))

    def _view_name(self):
        title, step = self._steps(1, N_("cleptomano.setup.step.players"))
        return SetupView(title, step, Msg("cleptomano.setup.question.name"), field=self.typed,
                         keys=self._keys(N_("cleptomano.setup.key.add"),
                                         N_("cleptomano.setup.key.bksp"),
                                         N_("cleptomano.setup.key.esc_cancel")))

    def _view_level(self):
        choices = [Choice(str(i + 1), level_name(name), level_words(PRESETS[name]),
                          current=self.level == PRESETS[name])
                   for i, name in enumerate(DIFFICULTIES)]
        custom = self.level.name == "custom"
        choices.append(Choice("4", level_name("custom"), level_words(self.level) if custom
                              else Msg("cleptomano.setup.custom_detail"), current=custom))
        title, step = self._steps(2, N_("cleptomano.setup.step.level"))
        return SetupView(title, step, Msg("cleptomano.setup.question.level"), tuple(choices),
                         keys=self._keys((N_("cleptomano.setup.key.choose"), {"most": 4}),
                                         N_("cleptomano.setup.key.keep"),
                                         N_("cleptomano.setup.key.back")))

    def _custom_view(self, question, choices=(), field=None, keys=()):
        title, step = self._steps(2, N_("cleptomano.setup.step.custom"))
        timer_s, lasers, corridor = self.custom
        level = Level("custom", timer_s, lasers, corridor)
        return SetupView(title, step, question, tuple(choices), field=field,
                         keys=self._keys(*keys),
                         summary=(Msg("cleptomano.setup.so_far", level=level_words(level)),))

    def _view_timer(self):
        return self._custom_view(
            Msg("cleptomano.setup.question.timer"), field=self.typed,
            keys=(N_("cleptomano.setup.key.digits"), N_("cleptomano.setup.key.next_empty"),
                  N_("cleptomano.setup.key.delete_back")))

    def _view_lasers(self):
        return self._custom_view(
            Msg("cleptomano.setup.question.lasers"),
            [Choice(str(n), Msg("cleptomano.level.lasers", n=n), current=self.custom[1] == n)
             for n in (3, 4, 5)],
            keys=((N_("cleptomano.setup.key.choose_from"), {"least": 3, "most": 5}),
                  N_("cleptomano.setup.key.keep"), N_("cleptomano.setup.key.back")))

    def _view_corridor(self):
        return self._custom_view(
            Msg("cleptomano.setup.question.corridor"),
            [Choice(str(i + 1), corridor_word(c), current=self.custom[2] == c)
             for i, c in enumerate(CORRIDORS)],
            keys=((N_("cleptomano.setup.key.choose"), {"most": 2}),
                  N_("cleptomano.setup.key.keep"), N_("cleptomano.setup.key.back")))

    def _view_first(self):
        title, step = self._steps(3, N_("cleptomano.setup.step.first"))
        choices = tuple(Choice(str(i + 1), name, current=i == self.first)
                        for i, name in enumerate(self.chosen[:PER_PAGE]))
        return SetupView(title, step, Msg("cleptomano.setup.question.first"), choices,
                         keys=self._keys((N_("cleptomano.setup.key.choose"),
                                          {"most": min(PER_PAGE, len(self.chosen))}),
                                         N_("cleptomano.setup.key.keep"),
                                         N_("cleptomano.setup.key.back")))

    def _view_layout(self):
        view = self._layout_view()
        choices = tuple(Choice(str(k), _end_words(end)) for k, end in END_KEYS.items())
        if self.layout_only:
            title, step = Msg("cleptomano.setup.step.layout"), ""
            question = Msg("cleptomano.setup.question.layout_only", n=view.lasers)
            keys = (N_("cleptomano.setup.key.an_end"), N_("cleptomano.setup.key.check"),
                    N_("cleptomano.setup.key.delete_back"))
        else:
            title, step = self._steps(4, N_("cleptomano.setup.step.layout"))
            question = Msg("cleptomano.setup.question.layout")
            keys = (N_("cleptomano.setup.key.an_end"), N_("cleptomano.setup.key.check_or_skip"),
                    N_("cleptomano.setup.key.delete_back"))
        return SetupView(title, step, question, choices, keys=self._keys(*keys), layout=view)

    def _view_confirm(self):
        title, step = self._steps(5, N_("cleptomano.setup.step.start"))
        level = self.level
        summary = (Msg("cleptomano.setup.players", players=tuple(self.chosen)),
                   Msg("cleptomano.setup.level_summary", name=level_name(level.name),
                       words=level_words(level)),
                   Msg("cleptomano.setup.steals_first", thief=self.chosen[self.first])
                   if len(self.chosen) > 1 else Msg("cleptomano.setup.solo"),
                   Msg("cleptomano.setup.layout_legal") if self.layout
                   else Msg("cleptomano.setup.layout_unchecked"))
        return SetupView(title, step, Msg("cleptomano.setup.question.start"),
                         summary=summary,
                         keys=self._keys(N_("cleptomano.setup.key.start"),
                                         N_("cleptomano.setup.key.back")))
