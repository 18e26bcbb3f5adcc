"""Cleptómano's own subcommands of ``cleptomano`` (the ``commands`` part of its folder,
:class:`rig.core.contract.Commands`): the command line (:mod:`rig.cli`) declares their options
and reaches what they do through the registry, never importing the game.

``cleptomano layout LAYOUT [--lasers N]``: the guard's laser layout checked against the
rulebook.  Exit 0 and ``legal: ...`` when it is legal; 1 and every broken rule, one a line,
when it is not; a layout that cannot be read is one ConfigError (exit 2).
"""

from ...core.errors import ConfigError, RulesError
from .rules.layout import format_layout, parse_layout, validate_layout


def layout(args, say):
    """``args.layout`` (the text) and ``args.lasers`` (None: any count of 3 to 5); ``say(line)``
    prints a line (a text, or a Msg said in English)."""
    try:
        lasers = parse_layout(args.layout)
    except RulesError as exc:
        one_line = str(exc).replace(":\n  ", ": ").replace("\n  ", "; ")
        raise ConfigError(one_line, key="layout") from None
    problems = validate_layout(lasers, args.lasers)
    if problems:
        for problem in problems:
            say(problem)
        return 1
    say("legal: %s" % format_layout(lasers))
    return 0


#: Subcommand name -> ``run(args, say)``.
COMMANDS = {"layout": layout}
