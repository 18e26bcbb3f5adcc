"""The audits: every recording's counts summed, and the sensor health judged from them.

Pure: each recording's part comes from its game (``GAME.audit(lines, path)``, see
:mod:`rig.games.base` and :mod:`rig.games.cleptomano.rules.audit`); the shell reads the files
(:mod:`rig.shell.audits`) and hands the parts here in the recordings' order (oldest first).
The shape of :func:`total`'s answer is documented in docs/contracts/cli.md.
"""

from .errors import ConfigError

#: The sensor health's settings: (default, low, high).
SILENT_TURNS = (30, 5, 1000)        # a rod silent for this many turns the thieves passed it
GLITCH_FACTOR = (3.0, 1.5, 100.0)   # the last night's glitches a turn over the nights before
GLITCH_MIN = (5, 1, 10000)          # ... and at least this many glitches the last night


def bounded(name, value, bounds):
    """``value`` checked against its ``(default, low, high)``: one ConfigError naming it."""
    default, low, high = bounds
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError("%s is %r; it must be a number from %s to %s (default %s): give one "
                          "in that range" % (name, value, low, high, default), key=name)
    return value


def _add(into, counts):
    for name, entry in counts.items():
        mine = into.setdefault(name, {})
        for key, n in entry.items():
            mine[key] = mine.get(key, 0) + n


def total(parts):
    """The audits of ``parts``: each a dict ``{"file", "game", "day", "seen", "audit",
    "cut_off"}`` (``day``: ``"YYYY-mm-dd"`` the recording began, or None; ``seen``: per input,
    the wall-clock second of its last change, ``"YYYY-mm-ddTHH:MM:SS"``, worked out by the shell
    from the recording's name and ``t``; ``audit``: the game's part); in the recordings'
    order.  A part's ``overrides`` (a museum game's: ``{"kinds", "reasons", "by"}``, each
    name -> count) are summed into ``overrides``."""
    matches, touches, levels, last_seen, turns = {}, {}, {}, {}, []
    nights, glitches, devices, last_night = {}, {}, {}, {}
    restarts = 0
    uptime = 0.0
    overrides = {"kinds": {}, "reasons": {}, "by": {}}
    for part in parts:
        a = part["audit"]
        m = a["matches"]
        entry = matches.setdefault(part["game"], {"started": 0, "finished": 0, "abandoned": 0,
                                                   "running": 0})
        if not m["empty"]:
            entry["started"] += m["started"]
            entry["finished"] += m["finished"]
            if not m["finished"]:
                entry["running" if part["cut_off"] else "abandoned"] += 1
            if part["day"]:
                nights[part["day"]] = nights.get(part["day"], 0) + m["started"]
        _add(touches, a["touches"])
        _add(levels, a["levels"])
        _add(devices, a.get("devices", {}))
        _add(overrides, a.get("overrides", {}))
        if part["day"] and a.get("devices"):
            _add(last_night.setdefault(part["day"], {}), a["devices"])
        restarts += a["restarts"]
        uptime += a["end_t"]
        last_seen.update(part.get("seen") or {})
        turns.extend(dict(turn, day=part["day"]) for turn in a["turns"])
        for name, entry in a["touches"].items():
            if "glitches" in entry:
                night = part["day"] or ""
                count = glitches.setdefault(name, {}).setdefault(night, [0, 0])
                count[0] += entry["glitches"]
                count[1] += len(a["turns"])
    return {
        "recordings": len(parts),
        "matches": matches,
        "touches": dict(sorted(touches.items())),
        "levels": levels,
        "nights": dict(sorted(nights.items())),
        "restarts": restarts,
        "uptime_s": round(uptime, 3),
        "last_seen": dict(sorted(last_seen.items())),
        "devices": dict(sorted(devices.items())),
        "overrides": {key: dict(sorted(counts.items()) if key == "by" else counts.items())
                      for key, counts in overrides.items()},
        "_turns": turns,
        "_last_night": last_night.get(max(nights), {}) if nights else {},
        "_glitches": glitches,
    }


def health(audits, silent_turns=SILENT_TURNS[0], glitch_factor=GLITCH_FACTOR[0],
           glitch_min=GLITCH_MIN[0], reinits=0):
    """The sensor health's warnings from :func:`total`'s audits, judged between matches:
    a list of ``{"code", "input", "count", "text"}``, ``text`` the builder's English with the
    fix.  ``reinits``: the hand sensor's re-initialisations the recordings do not hold (the
    running rig's :attr:`rig.table.tof.HandSensor.reinits`), added to the last night's
    ``reinit`` device lines."""
    bounded("health.silent_turns", silent_turns, SILENT_TURNS)
    bounded("health.glitch_factor", glitch_factor, GLITCH_FACTOR)
    bounded("health.glitch_min", glitch_min, GLITCH_MIN)
    warnings = []
    silent = {}
    for turn in audits["_turns"]:
        for rod in turn["rods"]:
            if rod in turn["fired"]:
                silent[rod] = 0
            elif turn["passed"]:
                silent[rod] = silent.get(rod, 0) + 1
    for rod, n in sorted(silent.items()):
        if n >= silent_turns:
            warnings.append({"code": "rod_silent", "input": "laser.%d" % rod, "count": n,
                             "text": "rod %d has not fired in %d turns: check its wire"
                                     % (rod, n)})
    for name, nights in sorted(audits["_glitches"].items()):
        if len(nights) < 2:
            continue
        days = sorted(nights)
        last, before = nights[days[-1]], [nights[d] for d in days[:-1]]
        rate = last[0] / max(last[1], 1)
        past = sum(g for g, _ in before) / max(sum(t for _, t in before), 1)
        if last[0] >= glitch_min and rate >= glitch_factor * max(past, 1e-9):
            warnings.append({"code": "glitch_jump", "input": name, "count": last[0],
                             "text": "%s glitched %d times the last night (%.1f a turn, %.1f "
                                     "before): check its contact and its wire"
                                     % (name, last[0], rate, past)})
    night = audits["_last_night"]
    relics = 0
    for device, counts in sorted(night.items()):
        stopped = counts.get("lost", 0) if device.startswith("relic.") else 0
        if stopped:
            relics += stopped
            warnings.append({"code": "relic_silent", "input": device, "count": stopped,
                             "text": "%s stopped answering %d time%s the last night (its "
                                     "frames stopped): check its sensor's cable to the hub"
                                     % (device, stopped, "" if stopped == 1 else "s")})
    # A relic that stops answering makes the hub's link lost too: named above as the relic.
    lost = max(0, night.get("hub", {}).get("lost", 0) - relics)
    if lost:
        warnings.append({"code": "hub_lost", "input": "hub", "count": lost,
                         "text": "the relic hub was lost %d time%s the last night (the relics' "
                                 "frames stopped): check its USB cable and its power"
                                 % (lost, "" if lost == 1 else "s")})
    reinits += night.get("tof", {}).get("reinit", 0)
    if reinits:
        warnings.append({"code": "tof_reinit", "input": "tof", "count": reinits,
                         "text": "the hand sensor needed re-initialising %d time%s: check its "
                                 "I2C wires and its power" % (reinits, "" if reinits == 1
                                                              else "s")})
    return warnings


def public(audits, warnings):
    """The audits as ``--json`` prints them (without the working lists)."""
    out = {key: value for key, value in audits.items() if not key.startswith("_")}
    out["health"] = warnings
    return out
