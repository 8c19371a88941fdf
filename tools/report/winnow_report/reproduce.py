"""The report of `winnow reproduce`: each paper's tables beside its published numbers, a verdict per
published finding computed from the records, and the paper's figures.

Usage: tools/report/reproduce.py DIR [--paper NAME ...] [--out OUT]
  DIR        what `winnow reproduce` wrote: reproduce.json, <api>/<suite>.jsonl, <api>/calibrate.jsonl
  --paper    moreira, cross-api, redzone, billeter, cpu, cis565, limit or all (default: the manifest's papers)
  --out      where report.md, report.json and the PNGs go (default: DIR)

report.md and report.json are written before any figure is drawn, and again after: a python without
matplotlib (or a figure that fails) still leaves the whole report, which says which figures are
missing and why. Exit status 0 unless the input cannot be read (2).
"""

import argparse
import json
import os
import pathlib
import sys

from .papers import ALIASES, MODULES, plots
from .papers.common import CHANGED, HOLDS, NOT_MEASURED, InputError, Paper, Run

# A record whose total varies more than this over its repetitions (stddev / mean) is flagged.
NOISY = 0.05


def paper_names(run, asked):
    """The papers to report, in the order of the report; unknown names come back apart."""
    names = asked or (run.manifest or {}).get("papers")
    if not names:
        raise InputError(f"{run.dir}: no reproduce.json naming the papers, and no --paper")
    if "all" in names:
        names = list(MODULES)
    known, unknown = [], []
    for n in names:
        n = ALIASES.get(n, n)
        (known if n in MODULES else unknown).append(n)
    return [n for n in MODULES if n in known], unknown


def plotting_error():
    """None when matplotlib can draw here, else why not (the figures are optional)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
    except Exception as e:  # ImportError, or a broken install: either way, no figures
        return (
            f"matplotlib cannot be imported by {sys.executable} ({type(e).__name__}: {e}); "
            "run the script with Debian's /usr/bin/python3 (python3-matplotlib) to draw them"
        )
    return None


def write_atomically(path, text):
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


# ------------------------------------------------------------------------------------------ Markdown


# Where a step's seconds went (reproduce.json's "time", from the records' host_ms and warm-up).
TIME_PARTS = ("timed", "warmup", "make", "upload", "check", "other")


def steps_table(run):
    """The steps, their status and seconds; where the manifest says where the seconds went (runs since
    reproduce.json has "time"), a column for each part."""
    steps = (run.manifest or {}).get("steps") or []
    if not steps:
        return []
    parts = TIME_PARTS if any(isinstance(s.get("time"), dict) for s in steps) else ()
    head = ["step", "api", "suite", "status", "seconds", *parts, "note"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in steps:
        note = s.get("reason") or (f"exit {s.get('exit')}" if s.get("exit") not in (None, 0) else "")
        suite = s.get("suite") or "—"
        if s.get("name") and s.get("name") != s.get("suite"):
            suite += f" (as {s['name']})"
        time = s.get("time") if isinstance(s.get("time"), dict) else {}
        spent = [f"{time[p]:.1f}" if isinstance(time.get(p), (int, float)) else "—" for p in parts]
        cells = [s.get("kind", "?"), s.get("api") or "—", suite, s.get("status", "?"), f"{s.get('seconds', 0):.1f}"]
        out.append("| " + " | ".join([*cells, *spent, note]) + " |")
    return out + [""]


def verdict_lines(verdicts):
    """One bullet per finding; a finding judged per api gets one sub-bullet per api."""
    out, groups = [], {}
    for v in verdicts:
        groups.setdefault((getattr(v, "base", v.finding), v.source), []).append(v)
    for (finding, source), vs in groups.items():

        def tail(v):
            return f"**{v.verdict}** — " + (v.evidence if v.verdict != NOT_MEASURED else v.reason)

        if len(vs) == 1 and not vs[0].scope:
            out.append(f"- {finding} ({source}): {tail(vs[0])}")
        else:
            out.append(f"- {finding} ({source}):")
            out += [f"  - {v.scope}: {tail(v)}" for v in vs]
    return out


def figure_lines(f, stage):
    notes = list(f.notes) + (plots.figure_notes(f) if f.rows else [])
    out = [f"**{f.file}** — {f.caption}", ""]
    if f.drawn:
        out += [f"![{f.caption}]({f.file})", ""]
    elif f.missing or f.error:
        out += [f"Not drawn: {f.missing or f.error}.", ""]
    elif stage == "before":
        out += [
            "Not drawn yet: the figures are drawn after this file is first written; if this line is still "
            "here, drawing stopped (see the console).",
            "",
        ]
    return out + [f"- {n}" for n in notes] + ([""] if notes else [])


def used(src):
    """'74 records used' or, where records stand for several seeds' runs, '1463 runs used (74 points, their
    seeds merged)': counted in runs, as the skipped and failed counts beside it are."""
    runs = sum(r.runs for r in src.usable)
    if runs == len(src.usable):
        return f"{runs} record{'' if runs == 1 else 's'} used"
    return f"{runs} runs used ({len(src.usable)} points, their seeds merged)"


def source_notes(src):
    return [f"  - {note}" for note in (src.interrupted(), src.failed()) if note and src.usable]


def listed(records, what, most=30):
    """A markdown list of the first `most` records, each described and said `what` of, the rest counted."""
    out = [f"- {r.describe()}: {what(r)}" for r in records[:most]]
    out += [f"- … and {len(records) - most} more"] if len(records) > most else []
    return out + [""]


def paper_markdown(p, stage):
    out = [f"## {p.name}: {p.title}", ""] + p.intro + [""]
    for api, src in p.sources.items():
        d = src.first()
        if src.usable:
            out.append(
                f"- `{api}`: {d.get('device')} ({d.get('driver')}), winnow {p.header(api)[2]}; {src.rel()}: "
                f"{used(src)}, {len(src.skipped)} skipped, "
                f"{len(src.wrong)} failed verification"
            )
        else:
            out.append(f"- `{api}`: {src.missing()}")
        out += source_notes(src)
    main_devices = {r.d.get("device") for src in p.sources.values() for r in src.usable}
    for src in p.more_sources:
        if src.exists:
            commits = p.header(src.api, src)[2]
            # The cards the main suites' records do not already name: another card, or none of theirs.
            cards = "".join(
                f"{d}, " for d in dict.fromkeys(r.d.get("device") for r in src.usable) if d and d not in main_devices
            )
            out.append(
                f"- and {src.rel()}"
                + (f" ({cards}winnow {commits})" if src.usable else "")
                + f": {used(src)}, {len(src.skipped)} skipped, {len(src.wrong)} failed verification"
            )
            out += source_notes(src)
    out += ["", "### Findings", ""] + verdict_lines(p.verdicts) + [""]
    missing = [f"- {t.name}: {t.missing}" for t in p.tables if not t.filled]
    missing += [f"- {f.file}: {f.missing}" for f in p.figures if f.missing]
    missing += [f"- {x}" for x in p.not_reproduced]
    if missing:
        out += ["### What is missing", ""] + missing + [""]
    for t in p.tables:
        out += t.markdown()
    if p.figures:
        out += ["### Figures", ""]
        for f in p.figures:
            out += figure_lines(f, stage)
    every = list(p.sources.values()) + p.more_sources
    noisy = sorted((r for src in every for r in src.usable if (r.noise or 0) > NOISY), key=lambda r: -r.noise)
    if noisy:
        out += [
            f"### Noisy records: relative noise over {NOISY:.0%}",
            "",
            "Their medians are used, but read them with care: rerun with `winnow bench --max-noise` to "
            "repeat until quiet.",
            "",
        ]
        out += listed(noisy, lambda r: f"{r.noise:.1%}")
    low = [r for src in every for r in src.usable if r.d.get("clock_gave_up")]
    if low:
        out += [
            "### Records timed with the clock low",
            "",
            "Their wait for the GPU's clock (75 % of its maximum, and 97 % of where it settled) ran out, and "
            "their samples were kept as they came: slower than the card runs them. Rerun them.",
            "",
        ]
        mhz = lambda r, k: f"{r.d.get(k) or 0:.0f}"  # noqa: E731
        out += listed(low, lambda r: f"{mhz(r, 'sm_mhz_min')}–{mhz(r, 'sm_mhz_max')} MHz of {mhz(r, 'sm_mhz_peak')}")
    wrong = [r for src in every for r in src.wrong]
    if wrong:
        out += ["### Records not used: failed verification", ""]
        out += listed(wrong, lambda r: r.d.get("mismatch") or "mismatch")
    return out


def markdown(run, papers, unknown, stage, plot_error):
    m = run.manifest or {}
    out = ["# winnow reproduce: " + ", ".join(p.name for p in papers), ""]
    if m:
        out += [
            f"- command: `{m.get('command', '?')}`",
            f"- winnow {m.get('winnow', '?')}"
            + (", quick run (smaller sizes and fewer cases than the papers)" if run.quick else ""),
        ]
    else:
        out += [f"- no reproduce.json in {run.dir}: papers named on the command line"]
    if plot_error:
        out.append(f"- figures not drawn: {plot_error}")
    out += [f"- unknown paper `{n}`: no report for it" for n in unknown]
    out += [""] + steps_table(run)
    out += ["| paper | tables filled | figures drawn | holds | changed | not measured |", "|---|---|---|---|---|---|"]
    for p in papers:
        count = {k: sum(v.verdict == k for v in p.verdicts) for k in (HOLDS, CHANGED, NOT_MEASURED)}
        out.append(
            f"| {p.name} | {sum(t.filled for t in p.tables)} of {len(p.tables)} | "
            f"{sum(f.drawn for f in p.figures)} of {len(p.figures)} | {count[HOLDS]} | {count[CHANGED]} | "
            f"{count[NOT_MEASURED]} |"
        )
    out += [
        "",
        "A verdict is computed from the records by the rule its evidence states: **holds** when ours "
        "shows what the paper found, **changed** when it does not (the numbers say how), **not measured** "
        "with the reason. Records that failed verification are never used.",
        "",
    ]
    for p in papers:
        out += paper_markdown(p, stage)
    return "\n".join(out) + "\n"


def report_json(run, papers, unknown, plot_error):
    return {
        "quick": run.quick,
        "winnow": (run.manifest or {}).get("winnow"),
        "figures_error": plot_error,
        "unknown_papers": unknown,
        "papers": {
            p.name: {
                "title": p.title,
                "tables": [t.json() for t in p.tables],
                "figures": [f.json() for f in p.figures],
                "verdicts": [v.json() for v in p.verdicts],
                "not_reproduced": p.not_reproduced,
            }
            for p in papers
        },
    }


def write(out, run, papers, unknown, stage, plot_error):
    write_atomically(out / "report.md", markdown(run, papers, unknown, stage, plot_error))
    write_atomically(out / "report.json", json.dumps(report_json(run, papers, unknown, plot_error), indent=1) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--paper", action="append", help="a paper to report (repeatable); default: the manifest's")
    ap.add_argument("--out", help="output folder (default: DIR)")
    a = ap.parse_args(argv)
    try:
        run = Run(a.dir)
        names, unknown = paper_names(run, a.paper)
        if a.paper and unknown:
            raise InputError(f"unknown paper {', '.join(unknown)}; known: {', '.join(MODULES)}")
        papers = []
        for name in names:
            p = Paper(run, name, MODULES[name])
            MODULES[name].build(p)
            papers.append(p)
    except InputError as e:
        print(f"reproduce: {e}", file=sys.stderr)
        return 2
    out = pathlib.Path(a.out or a.dir)
    out.mkdir(parents=True, exist_ok=True)

    figs = [f for p in papers for f in p.figures if not f.missing]
    plot_error = plotting_error() if figs else None
    for f in figs:
        f.error = plot_error
    write(out, run, papers, unknown, "before", plot_error)  # the report exists before any figure
    if not plot_error:
        for f in figs:
            try:
                plots.draw(f, out / f.file)
                f.drawn = True
            except Exception as e:  # one figure's failure costs that figure only
                f.error = f"drawing failed: {type(e).__name__}: {e}"
                print(f"reproduce: {f.file}: {f.error}", file=sys.stderr)
        write(out, run, papers, unknown, "after", plot_error)
    drawn = sum(f.drawn for f in figs)
    print(
        f"reproduce: wrote {out / 'report.md'}, {out / 'report.json'} and {drawn} figures"
        + (f" (figures not drawn: {plot_error})" if plot_error else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
