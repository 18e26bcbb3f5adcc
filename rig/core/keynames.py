"""The key names the guard's keys may be bound to: a pure table, so the config can refuse an
unknown ``[keys]`` name at load without importing pygame (the shell never depends on a face).

The names are pygame's (SDL 2's key names and pygame's own, such as keypad ``"[+]"``), compared
without regard to case; any single character names its own key.  ``tests/test_keynames.py``
checks the table against the pygame the display uses.
"""

#: Every key name of more than one character that pygame's ``key.key_code`` accepts, in lower case.
KEY_NAMES = frozenset((
    "[*]", "[+]", "[-]", "[.]", "[/]", "[0]", "[1]", "[2]", "[3]", "[4]", "[5]", "[6]", "[7]",
    "[8]", "[9]", "ac back", "ac bookmarks", "ac forward", "ac home", "ac refresh", "ac search",
    "ac stop", "again", "alt gr", "alterase", "app1", "app2", "application", "audiofastforward",
    "audiomute", "audionext", "audioplay", "audioprev", "audiorewind", "audiostop", "backspace",
    "break", "brightnessdown", "brightnessup", "calculator", "call", "cancel", "caps lock",
    "capslock", "clear", "clear / again", "computer", "copy", "crsel", "currencysubunit",
    "currencyunit", "cut", "decimalseparator", "delete", "displayswitch", "down", "eject", "end",
    "endcall", "enter", "equals", "escape", "euro", "execute", "exsel", "f1", "f10", "f11", "f12",
    "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f2", "f20", "f21", "f22", "f23", "f24", "f3",
    "f4", "f5", "f6", "f7", "f8", "f9", "find", "help", "home", "insert", "kbdillumdown",
    "kbdillumtoggle", "kbdillumup", "keypad !", "keypad #", "keypad %", "keypad &", "keypad &&",
    "keypad (", "keypad )", "keypad *", "keypad +", "keypad +/-", "keypad ,", "keypad -",
    "keypad .", "keypad /", "keypad 0", "keypad 00", "keypad 000", "keypad 1", "keypad 2",
    "keypad 3", "keypad 4", "keypad 5", "keypad 6", "keypad 7", "keypad 8", "keypad 9", "keypad :",
    "keypad <", "keypad =", "keypad = (as400)", "keypad >", "keypad @", "keypad ^", "keypad a",
    "keypad b", "keypad backspace", "keypad binary", "keypad c", "keypad clear",
    "keypad clearentry", "keypad d", "keypad decimal", "keypad e", "keypad enter", "keypad f",
    "keypad hexadecimal", "keypad memadd", "keypad memclear", "keypad memdivide",
    "keypad memmultiply", "keypad memrecall", "keypad memstore", "keypad memsubtract",
    "keypad octal", "keypad space", "keypad tab", "keypad xor", "keypad {", "keypad |",
    "keypad ||", "keypad }", "left", "left alt", "left ctrl", "left gui", "left meta",
    "left shift", "mail", "mediaselect", "menu", "modeswitch", "mute", "numlock", "oper", "out",
    "page down", "page up", "pagedown", "pageup", "paste", "pause", "power", "print screen",
    "printscreen", "prior", "return", "right", "right alt", "right ctrl", "right gui",
    "right meta", "right shift", "scroll lock", "scrolllock", "select", "separator", "sleep",
    "softleft", "softright", "space", "stop", "sys req", "sysreq", "tab", "thousandsseparator",
    "undo", "up", "volumedown", "volumeup", "www",
))


def known_key_name(name):
    """Whether the display knows the key called ``name`` (``"t"``, ``"Return"``, ``"[+]"``)."""
    return len(name) == 1 or name.lower() in KEY_NAMES
