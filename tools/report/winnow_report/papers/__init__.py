"""The papers `winnow reproduce` reruns: one module each, all built on common.py.

Each module exposes SUITE (the suite file it reads), APIS (the apis that run it), TITLE and
build(paper) -> None, which fills a common.Paper with tables, figure specs and verdicts. Nothing here
imports matplotlib: plots.py does, only when the figures are drawn, after report.md exists.
"""

from . import billeter, cis565, cpu, cross_api, limit, moreira, redzone

# The order of the report's sections; names as `winnow reproduce PAPER` spells them.
MODULES = {
    "moreira": moreira,
    "cross-api": cross_api,
    "redzone": redzone,
    "billeter": billeter,
    "cpu": cpu,
    "cis565": cis565,
    "limit": limit,
}
ALIASES = {"cross_api": "cross-api", "crossapi": "cross-api", "paths": "cross-api"}
