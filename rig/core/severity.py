"""How much a log line matters: every game's calls and the host loop's own lines carry one."""

import enum


class Severity(enum.StrEnum):
    INFO = "info"
    WARNING = "warning"


INFO, WARNING = Severity.INFO, Severity.WARNING
