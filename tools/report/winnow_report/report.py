"""Turns any winnow results folder (*.jsonl from `winnow bench`) into report.md and, for removal-list
cases, removal.png. The papers' own reports (their tables, published numbers, verdicts, figures)
are tools/report/reproduce.py's; this one shows whatever a bench measured.

Usage: tools/report/report.py RESULTS_DIR [--out DIR]

report.md holds, per case family, the median time of every phase, the total, the derived bandwidth
and whether the result was verified: one table per set of phases, so each table has only the phase
columns its rows have. It is written before the plot; without matplotlib (a python3 that is not
Debian's) the report still comes, and says the plot was not drawn and why.
"""

import argparse
import collections
import pathlib
import sys

from .papers import plots
from .papers.common import Figure, InputError, Panel, Rec, Series, load_jsonl, pct

MAX_SERIES = 8  # lines per panel; more algorithms go to another row of panels


def load(folder):
    """Records of the folder's *.jsonl; when those hold none (a `winnow reproduce` folder keeps its
    records in <api>/ subfolders), of every *.jsonl below it."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder")
    records = read(sorted(folder.glob("*.jsonl")))
    return records or read(sorted(folder.rglob("*.jsonl"))) or fail(folder)


def read(files):
    records = []
    for path in files:
        journal = path.name.endswith(".journal.jsonl")
        if journal and path.with_name(path.name.replace(".journal.jsonl", ".jsonl")).exists():
            continue  # the final file has them all (a journal left beside it holds no more)
        # Calibration lines share the folders but are not records: they have no algorithm.
        records += [Rec(d, where) for d, where in load_jsonl(path, journal=journal) if "algorithm" in d]
    return records


def fail(folder):
    raise InputError(f"no records (*.jsonl) in {folder}")


def params_text(p):
    return ",".join(f"{k}={v}" for k, v in sorted(p.items())) or "-"


def ms(ns):
    return f"{ns / 1e6:.3f}"


def tables(rows):
    """One table per set of phase names among the rows: no column is empty for a whole algorithm."""
    by_phases = collections.defaultdict(list)
    for r in rows:
        by_phases[tuple(r.phases) if not r.skipped else None].append(r)
    skipped = by_phases.pop(None, [])
    out = []
    for phases, group in sorted(by_phases.items(), key=lambda kv: min(r.algorithm for r in kv[1])):
        if len(by_phases) > 1:
            out += [f"### phases: {', '.join(phases) or 'total only'}", ""]
        head = ["algorithm", "params", "n"] + [f"{p} [ms]" for p in phases] + ["total [ms]", "GB/s", "result"]
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in sorted(group, key=lambda r: (r.n, r.algorithm, params_text(r.params))):
            moved = r.moved()
            cells = [r.algorithm, params_text(r.params), str(r.n)] + [ms(r.phases[p]) for p in phases]
            cells += [ms(r.total), f"{moved / r.total:.1f}" if r.total > 0 else "-", "ok" if r.verified else "WRONG"]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    if skipped:
        out += (
            ["Skipped:", ""]
            + [f"- {r.algorithm} ({params_text(r.params)}), n = {r.n}: {r.skipped}" for r in skipped]
            + [""]
        )
    return out


def removal_figure(records):
    """Total time against n, one panel per k (the Redzone paper's Figs. 4, 5 and 7), one line per
    algorithm in its fastest variant (fixed over n, named in the legend); None without removal cases."""
    runs = [
        r
        for r in records
        if r.usable
        and r.case.family == "removal"
        and r.case.fkey("k") is not None
        and r.case.key("r", "uniform") == "uniform"
    ]
    if not runs:
        return None
    variants = collections.defaultdict(lambda: collections.defaultdict(dict))  # algorithm -> params -> (k, n) -> ns
    for r in runs:
        variants[r.algorithm][params_text(r.params)][(r.case.fkey("k"), r.n)] = r.total
    chosen = {}
    for algo, by in variants.items():
        # The variant measured at the most points, then the fastest over them: one line per algorithm.
        chosen[algo] = min(by.items(), key=lambda kv: (-len(kv[1]), sum(kv[1].values())))
    algos = sorted(chosen)
    # µs unless the slowest point passes 10 ms: tick labels stay short ("500", not "5e+05").
    scale, unit = (1e6, "ms") if max(ns for _, pts in chosen.values() for ns in pts.values()) > 1e7 else (1e3, "µs")
    ks = sorted({k for _, pts in chosen.values() for k, _ in pts})
    devices = "; ".join(sorted({f"{r.api}: {r.d.get('device')}" for r in runs}))
    commits = ", ".join(sorted({str(r.d.get("winnow")) for r in runs}))
    fig = Figure(
        "removal.png",
        f"Removal lists: total time against n — {devices} — winnow {commits}",
        "total time against n, one panel per k; each algorithm in its fastest variant (named in the legend)",
    )
    for start in range(0, len(algos), MAX_SERIES):
        row = []
        for k in ks:
            panel = Panel(f"k = {pct(k)} removed", "n [elements]", f"median total time [{unit}]", xlog=2, ylog=True)
            for algo in algos[start : start + MAX_SERIES]:
                params, pts = chosen[algo]
                xy = sorted((n, ns / scale) for (kk, n), ns in pts.items() if kk == k)
                if xy:
                    label = algo + (f" ({params})" if params != "-" else "")
                    panel.series.append(Series(label, [x for x, _ in xy], [y for _, y in xy], algo.split("/", 1)[-1]))
            row.append(panel)
        fig.rows.append(row)
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--out", help="output folder (default: RESULTS)")
    a = ap.parse_args()
    try:
        records = load(a.results)
    except InputError as e:
        sys.exit(f"report: {e}")
    out = pathlib.Path(a.out or a.results)
    out.mkdir(parents=True, exist_ok=True)

    first = records[0].d
    md = [
        "# winnow results",
        "",
        f"- winnow {', '.join(sorted({str(r.d.get('winnow')) for r in records}))}",
        f"- host: {first.get('host')}",
    ]
    md += [
        f"- {api}: {dev} ({drv})"
        for api, dev, drv in sorted(
            {(r.api, r.d.get("device"), r.d.get("driver")) for r in records if r.d.get("device")}
        )
    ]
    md += [f"- command: `{c}`" for c in sorted({str(r.d.get("command")) for r in records})]
    md += [
        f"- {sum(not r.skipped for r in records)} runs, {sum(bool(r.skipped) for r in records)} skipped, "
        f"{sum(not r.skipped and not r.verified for r in records)} wrong",
        "",
    ]
    md += [
        "Times are medians over the repetitions in ms; GB/s = (bytes read + written by the algorithm's own traffic "
        "model) / median total time.",
        "",
    ]
    groups = collections.defaultdict(list)
    for r in records:
        keys = ":".join(f"{k}={v}" for k, v in r.case.keys.items())
        groups[(r.case.family, keys)].append(r)
    for (family, keys), rows in sorted(groups.items()):
        md += [f"## {family}{':' + keys if keys else ''}", ""] + tables(rows)

    fig = removal_figure(records)
    if fig:
        md += ["## Removal lists: total time against n", ""]
        notes = [f"- {n}" for n in plots.figure_notes(fig)]
        (out / "report.md").write_text("\n".join(md + ["Drawing removal.png …", ""]))  # the report exists first
        try:
            plots.draw(fig, out / "removal.png")
            md += [f"![{fig.caption}](removal.png)", ""] + notes + ([""] if notes else [])
        except ImportError as e:
            md += [
                f"removal.png not drawn: matplotlib cannot be imported by {sys.executable} ({e}); run with "
                "Debian's /usr/bin/python3 (python3-matplotlib).",
                "",
            ]
        except Exception as e:  # a figure must not cost the report
            md += [f"removal.png not drawn: {type(e).__name__}: {e}", ""]
    (out / "report.md").write_text("\n".join(md))
    print(f"report: wrote {out / 'report.md'}" + (" and removal.png" if (out / "removal.png").exists() and fig else ""))


if __name__ == "__main__":
    main()
