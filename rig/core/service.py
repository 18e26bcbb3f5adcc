"""The builder's service mode, pure: its pages, its settings with their bounds and presets, the
switch test's view of the inputs, and what each key does (issue 31).

Pure (the standard library and :mod:`rig.core` only): the shell (:mod:`rig.shell.service`) opens
it, feeds it the table's raw inputs and the keys, and performs what it asks for
(:class:`Change`, :class:`Beep`, :class:`Test`, :class:`Leave`); the faces draw the
:class:`ServiceScreen` it makes.

The settings the service mode keeps (the table's tuning, saved in ``table.json``; rig.toml
keeps the factory values):

* ``merge.laser.N`` -- rod N's merge window (seconds): a release shorter than it and the next
  press are one touch (``[detect] merge_window_s`` is every rod's factory value);
* ``tilt.relic.N`` -- relic N's tilt threshold (degrees): tipped this far for ``tilt_hold_s``
  while a hand is inside, the relic counts as knocked over (60 by default);
* ``volume.master``, ``volume.effects``, ``volume.voice`` (0 to 1), ``voice`` (on or off),
  ``voice.es`` (the Spanish voice: ``es-419`` or ``es``).
"""

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from .errors import RigError
from .msg import N_, Msg

#: The snapshot's ``game``: the faces draw a service screen and read the service keys for it.
SERVICE = "service"

PAGES = ("menu", "switch-test", "sound", "sensitivity", "audits")
#: The menu's entries, in order (each opens its page).
MENU = ("switch-test", "sound", "sensitivity", "audits")

#: The documented bounds (rig.toml's [detect] merge_window_s is 0 to 1 s; a relic counts as
#: upright below 30 degrees, so a threshold below that would call every relic fallen).
MERGE_LOW_S, MERGE_HIGH_S, MERGE_STEP_S = 0.0, 1.0, 0.010
TILT_LOW_DEG, TILT_HIGH_DEG, TILT_STEP_DEG = 30.0, 85.0, 5.0
VOLUME_STEP = 0.1
DEFAULT_MERGE_S = 0.100
DEFAULT_TILT_DEG = 60.0
SPANISH_VOICES = ("es-419", "es")

PRESETS = ("strict", "normal", "forgiving")
#: Each preset's value per kind of sensitivity.
PRESET_VALUES = {
    "merge": {"strict": 0.050, "normal": DEFAULT_MERGE_S, "forgiving": 0.200},
    "tilt": {"strict": 45.0, "normal": DEFAULT_TILT_DEG, "forgiving": 75.0},
}
CUSTOM = "custom"

#: The sound settings, in the page's order, with their factory defaults.
SOUND_KEYS = ("volume.master", "volume.effects", "volume.voice", "voice", "voice.es")
SOUND_DEFAULTS = {"volume.master": 1.0, "volume.effects": 0.8, "volume.voice": 1.0,
                  "voice": True, "voice.es": "es-419"}

#: The most rods and relics a key may name (the museum's: lasers 1-8, relics 1-3).
LASER_NUMBERS = tuple(range(1, 9))
RELIC_NUMBERS = (1, 2, 3)
#: The most settings a tuning holds (every rod, relic and sound setting once).
MOST_SETTINGS = len(LASER_NUMBERS) + len(RELIC_NUMBERS) + len(SOUND_KEYS)


#: The codes each page, setting and preset is said with (literal, for the catalog tools).
PAGE_WORDS = {"menu": N_("rig.service.page.menu"),
              "switch-test": N_("rig.service.page.switch_test"),
              "sound": N_("rig.service.page.sound"),
              "sensitivity": N_("rig.service.page.sensitivity"),
              "audits": N_("rig.service.page.audits")}
ABOUT_WORDS = {"switch-test": N_("rig.service.about.switch_test"),
               "sound": N_("rig.service.about.sound"),
               "sensitivity": N_("rig.service.about.sensitivity"),
               "audits": N_("rig.service.about.audits")}
SETTING_WORDS = {"volume.master": N_("rig.service.setting.volume_master"),
                 "volume.effects": N_("rig.service.setting.volume_effects"),
                 "volume.voice": N_("rig.service.setting.volume_voice"),
                 "voice": N_("rig.service.setting.voice"),
                 "voice.es": N_("rig.service.setting.voice_es")}
EXPLAIN_WORDS = {"merge": N_("rig.service.explain.merge"),
                 "tilt": N_("rig.service.explain.tilt"),
                 "volume.master": N_("rig.service.explain.volume_master"),
                 "volume.effects": N_("rig.service.explain.volume_effects"),
                 "volume.voice": N_("rig.service.explain.volume_voice"),
                 "voice": N_("rig.service.explain.voice"),
                 "voice.es": N_("rig.service.explain.voice_es")}
PRESET_WORDS = {"strict": N_("rig.service.preset.strict"),
                "normal": N_("rig.service.preset.normal"),
                "forgiving": N_("rig.service.preset.forgiving"),
                CUSTOM: N_("rig.service.preset.custom")}


class ServiceError(RigError):
    """A service-mode value or key refused: its ``msg`` says it to the table, its text (English,
    one line) names the value, what is allowed and the fix."""

    def __init__(self, text, msg):
        super().__init__(text)
        self.msg = msg


# --- the settings ---------------------------------------------------------------------------

def kind_of(key):
    """``"merge"``, ``"tilt"``, ``"volume"``, ``"voice"`` or ``"voice.es"`` for a key the
    service mode keeps; ServiceError for any other."""
    if isinstance(key, str):
        head, _, rest = key.partition(".")
        if head == "merge" and rest in ("laser.%d" % n for n in LASER_NUMBERS):
            return "merge"
        if head == "tilt" and rest in ("relic.%d" % n for n in RELIC_NUMBERS):
            return "tilt"
        if key in ("volume.master", "volume.effects", "volume.voice"):
            return "volume"
        if key in ("voice", "voice.es"):
            return key
    raise ServiceError(
        "%s is not a setting the service mode keeps; use merge.laser.1 to merge.laser.8, "
        "tilt.relic.1 to tilt.relic.3, %s" % (_short(key), ", ".join(SOUND_KEYS)),
        Msg("rig.service.no_such_setting", key=_short(key)))


def check_value(key, value):
    """``value`` for ``key`` as the tuning keeps it (a number rounded to its step's grid, a
    bool, a choice); ServiceError naming the value, what is allowed and the fix."""
    kind = kind_of(key)
    if kind == "voice":
        if isinstance(value, bool):
            return value
        raise _refused(key, value, "true (on) or false (off)", "on / off")
    if kind == "voice.es":
        if value in SPANISH_VOICES:
            return value
        raise _refused(key, value, " or ".join(SPANISH_VOICES), " / ".join(SPANISH_VOICES))
    low, high, decimals, allowed, digits = {
        "merge": (MERGE_LOW_S, MERGE_HIGH_S, 3, "0 to 1 seconds (%s)" % _presets_said("merge"),
                  "0-1000 ms"),
        "tilt": (TILT_LOW_DEG, TILT_HIGH_DEG, 1, "30 to 85 degrees (%s)" % _presets_said("tilt"),
                 "30-85°"),
        "volume": (0.0, 1.0, 2, "0.0 (silent) to 1.0 (full)", "0-100 %"),
    }[kind]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or not low <= value <= high:
        raise _refused(key, value, allowed, digits)
    return round(float(value), decimals)


def _presets_said(kind):
    return ", ".join("%s %g" % (p, PRESET_VALUES[kind][p]) for p in PRESETS)


def _refused(key, value, allowed, digits):
    """The refusal: English for the log (value, what is allowed, the fix), a code for the
    table (``digits``: the allowed range in digits and units, no words)."""
    return ServiceError("%s = %s is not allowed; give %s" % (key, _short(value), allowed),
                        Msg("rig.service.refused", key=key, value=_short(value),
                            allowed=digits))


def _short(value, most=40):
    """``value`` shown in one line (its repr: a newline in it stays ``\\n``), cut to ``most``."""
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def check_tuning(pairs):
    """A tuning (``((key, value), ...)``, or a dict) checked: sorted pairs, each value checked;
    ServiceError for the first that is not."""
    if isinstance(pairs, dict):
        pairs = tuple(pairs.items())
    if not isinstance(pairs, (tuple, list)) or len(pairs) > MOST_SETTINGS:
        raise ServiceError("%s is not a tuning; give at most %d settings as {\"key\": value}"
                           % (_short(pairs), MOST_SETTINGS),
                           Msg("rig.service.no_such_setting", key=_short(pairs)))
    out = {}
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ServiceError("%s is not a (setting, value) pair" % _short(pair),
                               Msg("rig.service.no_such_setting", key=_short(pair)))
        out[pair[0]] = check_value(pair[0], pair[1])
    return tuple(sorted(out.items()))


def tuned(tuning, key, value):
    """``tuning`` with ``key`` set to ``value`` (checked; :func:`changed` drops a key set back
    to its factory value)."""
    value = check_value(key, value)
    return tuple(sorted(dict(tuning, **{key: value}).items()))


def untuned(tuning, key):
    """``tuning`` without ``key``: its factory value again."""
    return tuple((k, v) for k, v in tuning if k != key)


def preset_of(kind, value):
    """The preset ``value`` is (``strict``, ``normal``, ``forgiving``), or ``custom``."""
    for name in PRESETS:
        if abs(PRESET_VALUES[kind][name] - value) < 1e-9:
            return name
    return CUSTOM


def next_preset(kind, value):
    """The preset after ``value``'s (a custom value goes to ``strict``)."""
    now = preset_of(kind, value)
    name = PRESETS[0] if now == CUSTOM else PRESETS[(PRESETS.index(now) + 1) % len(PRESETS)]
    return PRESET_VALUES[kind][name]


def stepped(key, value, direction):
    """``value`` moved one step up (``direction`` 1) or down (-1), within the bounds."""
    kind = kind_of(key)
    if kind == "voice":
        return not value
    if kind == "voice.es":
        return SPANISH_VOICES[(SPANISH_VOICES.index(value) + 1) % len(SPANISH_VOICES)]
    low, high, step = {"merge": (MERGE_LOW_S, MERGE_HIGH_S, MERGE_STEP_S),
                       "tilt": (TILT_LOW_DEG, TILT_HIGH_DEG, TILT_STEP_DEG),
                       "volume": (0.0, 1.0, VOLUME_STEP)}[kind]
    return check_value(key, min(high, max(low, round(value + direction * step, 6))))


def shown(key, value):
    """A setting's value as the screen shows it (digits and units only: no words)."""
    kind = kind_of(key)
    if kind == "merge":
        return "%d ms" % round(value * 1000)
    if kind == "tilt":
        return "%g°" % value
    if kind == "volume":
        return "%d %%" % round(value * 100)
    if kind == "voice":
        return "on" if value else "off"      # not words: replaced by rig.service.on/off
    return value


# --- the service mode's state -----------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """A setting changed: ``key`` from ``old`` to ``new`` (each its value, the factory's
    when the table had not changed it)."""
    key: str
    old: object
    new: object


@dataclass(frozen=True)
class Beep:
    """The switch test heard ``name`` become active: the buzzer beeps."""
    name: str


@dataclass(frozen=True)
class Test:
    """Play the test of ``key``: a sound (``volume.master``, ``volume.effects``) or the spoken
    test (``volume.voice``, ``voice``, ``voice.es``)."""
    key: str


@dataclass(frozen=True)
class Leave:
    """The service mode is closed."""


@dataclass(frozen=True)
class Desk:
    """The service mode now: who opened it (``by``), the ``page`` and its ``cursor``, the
    switch test's ``inputs`` (the pin map's names, then the hand sensor, the relics and the
    hub's link) with their ``values`` and ``edges`` (name -> seconds since the mode opened of
    its last change), the rod ``lit`` last, the ``tuning`` (the table's changes) over the
    ``factory`` values (key -> value: rig.toml's or the default)."""
    by: str
    inputs: Tuple[str, ...]
    factory: Tuple[Tuple[str, object], ...]
    tuning: Tuple[Tuple[str, object], ...] = ()
    page: str = "menu"
    cursor: int = 0
    values: Tuple[Tuple[str, object], ...] = ()
    edges: Tuple[Tuple[str, float], ...] = ()
    lit: Optional[str] = None
    audit: Optional["AuditView"] = None

    def value(self, key):
        """A setting's value now (the table's, else the factory's)."""
        return dict(self.tuning).get(key, dict(self.factory)[key])

    def rows(self):
        """The keys (or input names, or pages) the page lists."""
        if self.page == "menu":
            return MENU
        if self.page == "switch-test":
            return self.inputs
        if self.page == "sound":
            return SOUND_KEYS
        if self.page == "audits":
            return ()
        return tuple(k for k, _ in self.factory if kind_of(k) in ("merge", "tilt"))


def open_desk(by, inputs, factory, tuning=(), values=None):
    """The service mode as it opens: the menu, the inputs' ``values`` as the table reads them
    now."""
    by = str(by or "").strip()[:40] or "screen"
    return Desk(by=by, inputs=tuple(inputs), factory=tuple(sorted(dict(factory).items())),
                tuning=check_tuning(tuning), values=tuple(sorted((values or {}).items())))


def heard(desk, since_s, name, value):
    """The switch test hears a raw input: its value and its last edge kept; an active edge of a
    rod lights its name and beeps (any page: the builder walks the box with the switch test
    open).  Returns ``(desk, effects)``."""
    values = dict(desk.values)
    if values.get(name) == value and name in values:
        return desk, []
    values[name] = value
    edges = dict(desk.edges)
    edges[name] = round(since_s, 3)
    desk = replace(desk, values=tuple(sorted(values.items())), edges=tuple(sorted(edges.items())))
    if value and name.startswith("laser.") and isinstance(value, (int, float)):
        lit = replace(desk, lit=name)
        if desk.page == "switch-test" and name in desk.inputs:
            lit = replace(lit, cursor=desk.inputs.index(name))    # its row in sight
        return lit, [Beep(name)]
    return desk, []


#: The keys the service mode reads (the faces map the keyboard and the keypad onto them).
KEYS = ("up", "down", "less", "more", "enter", "back", "preset", "factory", "test")


def press(desk, key):
    """One service key: ``(desk, effects)``.  ServiceError for a key it does not know."""
    if key not in KEYS:
        raise ServiceError("%s is not a service key; use one of %s" % (_short(key),
                                                                      ", ".join(KEYS)),
                           Msg("rig.service.no_such_key", key=_short(key)))
    rows = desk.rows()
    if key == "back":
        if desk.page == "menu":
            return desk, [Leave()]
        return replace(desk, page="menu", cursor=MENU.index(desk.page)
                       if desk.page in MENU else 0), []
    if key in ("up", "down"):
        if not rows:
            return desk, []
        step = -1 if key == "up" else 1
        return replace(desk, cursor=(desk.cursor + step) % len(rows)), []
    if desk.page == "menu":
        if key in ("enter", "more"):
            return replace(desk, page=MENU[desk.cursor % len(MENU)], cursor=0), []
        return desk, []
    if desk.page in ("switch-test", "audits") or not rows:
        return desk, []
    setting = rows[desk.cursor % len(rows)]
    now = desk.value(setting)
    factory = dict(desk.factory)[setting]
    kind = kind_of(setting)
    if key == "test" or (key == "enter" and desk.page == "sound"):
        return desk, [Test(setting)]
    if key in ("less", "more"):
        new = stepped(setting, now, 1 if key == "more" else -1)
    elif key == "preset" and kind in PRESET_VALUES:
        new = next_preset(kind, now)
    elif key == "factory":
        new = factory
    else:
        return desk, []
    return changed(desk, setting, new)


def changed(desk, key, value):
    """``desk`` with ``key`` set to ``value`` (checked; the factory value clears the change):
    ``(desk, [Change])``, or ``(desk, [])`` when nothing changed."""
    value = check_value(key, value)
    old = desk.value(key)
    if value == old:
        return desk, []
    factory = dict(desk.factory)[key]
    tuning = untuned(desk.tuning, key) if value == factory else tuned(desk.tuning, key, value)
    return replace(desk, tuning=tuning), [Change(key, old, value)]


def factory_values(merge_s, rods, relics, sound):
    """The factory value of every setting: each rod's merge window ``merge_s`` (rig.toml's
    [detect]), each relic's default tilt threshold, and ``sound`` (key -> value, rig.toml's
    [sound] and [display] over :data:`SOUND_DEFAULTS`)."""
    out = {"merge.laser.%d" % n: round(float(merge_s), 3) for n in rods}
    out.update({"tilt.relic.%d" % n: DEFAULT_TILT_DEG for n in relics})
    out.update(SOUND_DEFAULTS)
    out.update({k: v for k, v in dict(sound).items() if k in SOUND_DEFAULTS})
    return tuple(sorted(out.items()))


# --- what the screen shows ----------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One line of a service page: ``name`` (an input's or a setting's, as the pin map and the
    docs spell it), ``label`` (words: a Msg, or None), ``value`` and ``factory`` (text or a
    Msg), ``explain`` (a Msg: what it changes), ``lit`` (just touched), ``changed`` (not the
    factory value)."""
    name: str
    label: Optional[Msg] = None
    value: object = ""
    factory: object = ""
    explain: Optional[Msg] = None
    lit: bool = False
    changed: bool = False
    since: str = ""


@dataclass(frozen=True)
class ServiceScreen:
    """The service mode's snapshot for the faces: ``game`` is :data:`SERVICE`."""
    page: str
    rows: Tuple[Row, ...]
    cursor: int
    by: str
    language: str = "en"
    message: Optional[Msg] = None
    sounds: Tuple[Tuple[int, str], ...] = ()
    spoken: Tuple[Tuple[int, str], ...] = ()
    levels: Tuple[Tuple[str, object], ...] = ()
    audit: Optional["AuditView"] = None
    game: str = SERVICE

    @property
    def title(self):
        return Msg(PAGE_WORDS[self.page])


_WORDS = {"on": Msg("rig.service.on"), "off": Msg("rig.service.off")}


def _said(key, value):
    text = shown(key, value)
    return _WORDS.get(text, text) if kind_of(key) == "voice" else text


def _explain(key):
    kind = kind_of(key)
    return Msg(EXPLAIN_WORDS[kind if kind in ("merge", "tilt") else key])


def label(key):
    """A setting's name on the screen (a code): ``merge.laser.4`` is "laser.4: merge window"."""
    kind = kind_of(key)
    if kind in ("merge", "tilt"):
        return None         # the input's own name (laser.4, relic.2): what the box says
    return Msg(SETTING_WORDS[key])


def _value_text(key, value):
    kind = kind_of(key)
    said = _said(key, value)
    if kind in PRESET_VALUES:
        return Msg(PRESET_WORDS[preset_of(kind, value)], value=said)
    return said


def screen(desk, language="en", message=None, sounds=(), spoken=(), now_s=0.0):
    """The :class:`ServiceScreen` of ``desk`` (``now_s``: seconds since it opened, for the
    switch test's "last edge N s ago")."""
    values, edges = dict(desk.values), dict(desk.edges)
    rows = []
    if desk.page == "menu":
        rows = [Row(name=p, label=Msg(PAGE_WORDS[p]), explain=Msg(ABOUT_WORDS[p]))
                for p in MENU]
    elif desk.page == "switch-test":
        for name in desk.inputs:
            value = values.get(name)
            since = ("%.1f s" % max(0.0, now_s - edges[name])) if name in edges else "-"
            rows.append(Row(name=name, value=_input_text(name, value), since=since,
                            lit=name == desk.lit))
    else:
        factory = dict(desk.factory)
        tuning = dict(desk.tuning)
        for key in desk.rows():
            name = key.split(".", 1)[1] if kind_of(key) in PRESET_VALUES else key
            rows.append(Row(name=name, label=label(key), value=_value_text(key, desk.value(key)),
                            factory=_said(key, factory[key]), explain=_explain(key),
                            changed=key in tuning))
    levels = tuple((k, desk.value(k)) for k in SOUND_KEYS)
    return ServiceScreen(page=desk.page, rows=tuple(rows), cursor=desk.cursor, by=desk.by,
                         language=language, message=message, sounds=tuple(sounds),
                         spoken=tuple(spoken), levels=levels,
                         audit=desk.audit if desk.page == "audits" else None)


def _input_text(name, value):
    """An input's state as digits and marks: 1/0 for a contact, mm for the hand sensor,
    degrees for a tilt, the hub's link up or down."""
    if value is None:
        return "?"
    if name == "tof":
        return "%d mm" % value
    if name.endswith(".tilt"):
        return "%.1f°" % value
    if name == "hub":
        return Msg("rig.service.link_up") if value else Msg("rig.service.link_down")
    kind = name.split(".")[0] if not name.endswith(".motion") else "motion"
    pair = STATE_WORDS.get(kind, STATE_WORDS["laser"])
    return Msg(pair[1] if value else pair[0])


#: A contact's two states as the switch test says them, by kind of input: (0, 1).  The state
#: away from the museum's rest is in capitals (it stands out while the box is walked).
STATE_WORDS = {
    "laser": (N_("rig.service.state.open"), N_("rig.service.state.contact")),
    "guard": (N_("rig.service.state.open"), N_("rig.service.state.contact")),
    "button": (N_("rig.service.state.released"), N_("rig.service.state.pressed")),
    "seat": (N_("rig.service.state.out"), N_("rig.service.state.seated")),
    "painting": (N_("rig.service.state.lifted"), N_("rig.service.state.on_stand")),
    "motion": (N_("rig.service.state.still"), N_("rig.service.state.moving")),
}


# --- what a tuning changes ------------------------------------------------------------------------

def sound_levels(values):
    """What the speakers play at, from the sound settings (key -> value; a key left out: its
    default): the effects' volume (master x effects), the voice's (master x voice), whether
    the voice speaks, the Spanish voice."""
    v = dict(SOUND_DEFAULTS, **{k: val for k, val in dict(values).items() if k in SOUND_DEFAULTS})
    master = v["volume.master"]
    return (round(master * v["volume.effects"], 3), round(master * v["volume.voice"], 3),
            v["voice"], v["voice.es"])


def detect_parts(tuning):
    """The tuning's per-part detection settings: ``(merge_by_contact, tipped_by_relic)``, the
    pairs :class:`rig.table.debounce.DetectSettings` takes."""
    merge, tilt = [], []
    for key, value in tuning:
        kind = kind_of(key)
        if kind == "merge":
            merge.append((key.split(".", 1)[1], value))
        elif kind == "tilt":
            tilt.append((int(key.rsplit(".", 1)[1]), value))
    return tuple(sorted(merge)), tuple(sorted(tilt))


# --- the commands that reach the host --------------------------------------------------------------

@dataclass(frozen=True)
class OpenService:
    """Open the service mode (the screen's key combination, a phone through the host's
    ``open_service``): ``by`` who opened it.  ``t`` is replaced by the host's stamp."""
    t: float
    by: str = "screen"


@dataclass(frozen=True)
class ServiceKey:
    """A service key (one of :data:`KEYS`) typed at the screen while the mode is open."""
    t: float
    key: str


# --- the audits as a picture ------------------------------------------------------------------------

#: How many nights the matches-per-night chart shows (the newest).
NIGHTS_SHOWN = 7


@dataclass(frozen=True)
class AuditView:
    """What the audits page draws: per rod (``laser.N``, in the corridor's order) its touches,
    the touches the guard voided, its glitches and stuck periods; the matches per night (the
    newest :data:`NIGHTS_SHOWN`, ``(day, matches)``); the matches started, finished and
    abandoned over every game; the recordings read."""
    rods: Tuple[Tuple[str, int, int, int, int], ...] = ()
    nights: Tuple[Tuple[str, int], ...] = ()
    started: int = 0
    finished: int = 0
    abandoned: int = 0
    recordings: int = 0


def audit_view(audits, rods=LASER_NUMBERS):
    """The :class:`AuditView` of ``audits`` (``cleptomano audits --json``'s object,
    :func:`rig.core.audits.total`), for the rods ``rods``."""
    touches = audits.get("touches", {}) or {}
    out = []
    for n in rods:
        entry = touches.get("laser.%d" % n, {}) or {}
        out.append(("laser.%d" % n,) + tuple(_count(entry.get(k)) for k in
                                            ("touches", "voided", "glitches", "stuck")))
    nights = sorted((str(day), _count(n)) for day, n in (audits.get("nights", {}) or {}).items())
    matches = (audits.get("matches", {}) or {}).values()
    return AuditView(rods=tuple(out), nights=tuple(nights[-NIGHTS_SHOWN:]),
                     started=sum(_count(m.get("started")) for m in matches),
                     finished=sum(_count(m.get("finished")) for m in matches),
                     abandoned=sum(_count(m.get("abandoned")) for m in matches),
                     recordings=_count(audits.get("recordings")))


def _count(n):
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0
