"""The phones at the table, as the rig's screen shows them, and the key that unpairs them all.

Pairing itself (codes, the lock-out, sessions) lives with the web face (:mod:`rig.web.pairing`);
the host only carries its snapshot, a :class:`PhonesView`, on every snapshot of the screen
(``phones``), and :func:`screen_lines` words it for the screen.  The pairing code is on the screen and nowhere else: :func:`public` is the view without it,
for anything a phone can read.

Pure: no clock (the lock-out's seconds are measured by whoever builds the view).
"""

import math
from dataclasses import dataclass, replace
from typing import Optional, Tuple
from .msg import Msg


@dataclass(frozen=True)
class RevokePhones:
    """The guard's key: unpair every phone and show a new code, or (``name``) only the phone
    paired as ``name``, whose seat is free again (the code stays).  Not a recording line (it
    changes who may command, not the match)."""
    t: float = 0.0
    name: Optional[str] = None


@dataclass(frozen=True)
class MakeHost:
    """The screen's key (issue 31): the phone paired as ``name`` becomes the table's host, the
    one phone that reads the audits and opens service mode (``name`` None: no phone is host).
    Not a recording line (it changes who may do what, not the match)."""
    t: float = 0.0
    name: Optional[str] = None


@dataclass(frozen=True)
class PhonesView:
    """What the screen shows of the phones: ``url`` to open (the QR code's text), ``code`` the
    6-digit pairing code (None while pairing is locked, and in :func:`public`), ``phones`` the
    paired phones' names in pairing order, ``locked_s`` the seconds pairing stays locked after
    too many wrong codes (None: open), ``wrong_codes`` the wrong codes that locked it,
    ``host`` the name of the phone the table made its host (None: none)."""
    url: str
    code: Optional[str] = None
    phones: Tuple[str, ...] = ()
    locked_s: Optional[float] = None
    wrong_codes: int = 0
    host: Optional[str] = None


def public(view):
    """The view as phones may see it: everything but the code."""
    return replace(view, code=None)


def pair_link(view):
    """The QR code's text: the address with the pairing code (``?pair=123456``), so that a
    scan pairs without typing it (docs/games/phones.md); the address alone while pairing is locked
    or in :func:`public` (the code never reaches a phone but through the screen)."""
    if not view.url or not view.code or view.locked_s is not None:
        return view.url
    return "%s%spair=%s" % (view.url, "&" if "?" in view.url else "?", view.code)


def spaced(code):
    """``"123456"`` -> ``"123 456"``: read aloud and typed in two halves."""
    return "%s %s" % (code[:3], code[3:]) if code and len(code) == 6 else (code or "")


def screen_lines(view):
    """The screen's words for the phones, as codes: ``(heading, where, code line, paired
    line)``.  A
    lock-out takes the code's place, in as few words as fit its big type; the heading says
    why."""
    if view.locked_s is not None:
        heading = Msg("rig.phones.wrong_codes", n=view.wrong_codes)
        code = Msg("rig.phones.locked", seconds=math.ceil(view.locked_s))
    else:
        heading = Msg("rig.phones.scan")
        code = Msg("rig.phones.code", code=spaced(view.code))
    if view.phones and view.host is not None:
        paired = Msg("rig.phones.paired_host", phones=tuple(view.phones), host=view.host)
    elif view.phones:
        paired = Msg("rig.phones.paired", phones=tuple(view.phones))
    else:
        paired = Msg("rig.phones.none_paired")
    return heading, view.url or Msg("rig.phones.address_soon"), code, paired
