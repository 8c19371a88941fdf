"""docs/results/README.md, made from the reports kept under docs/results, and README.md's "How fast".

Usage: results_index.py RESULTS [--readme README.md] [--check]
  RESULTS   the results folder: RESULTS/<card>/<paper>/ holds a `winnow reproduce` run (report.md,
            report.json, the figures, records.tar.xz, reproduce.json); any other folder with a
            README.md (RESULTS/<card>/gallery/, RESULTS/fuzz/) is listed by its first heading
  --readme  also replace what lies between the how-fast markers in this file
  --check   write nothing; exit 1 naming each file that is not as it would be made

The page depends on nothing but the files (no clock, no git history): the same tree gives the same
bytes, so a test can tell a stale page from a current one. Exit 0, 1 (--check: stale), 2 (input).
"""

import argparse
import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys
import tarfile
from datetime import UTC, datetime

from .papers import MODULES

PAGE = "README.md"
BEGIN = "<!-- results:how-fast:begin -->"
END = "<!-- results:how-fast:end -->"
COMMAND = "python3 tools/report/results_index.py docs/results --readme README.md"
BUDGET_MB = 20  # docs/results in a clone; tools/report/tests/test_repository.py holds the tree to it
# A session folder of the old layout (CARD-YYYY-MM-DD, a letter after): not a card folder.
SESSION = re.compile(r"-20[0-9]{2}-")
# What the "How fast" fragment looks for in a finding and its evidence: the libraries, the bounds and
# the oracle (the best fixed choice, what the adaptive algorithm is held to).
BASELINES = re.compile(r"\b(CUB|thrust|roofline|CUDPP|memcpy|oracle)\b", re.IGNORECASE)
HEADLINE_CHARS = 220
DASH = "—"


class InputError(Exception):
    pass


@dataclasses.dataclass
class Report:
    """One paper of one report.json: RESULTS/<card>/<folder>/report.json's papers[<paper>]."""

    card: str
    folder: str  # relative to RESULTS, with / separators
    paper: str
    title: str
    tables: list
    figures: list
    verdicts: list
    not_reproduced: list
    build: str
    date: str
    seconds: float | None
    command: str


@dataclasses.dataclass
class Other:
    folder: str  # relative to RESULTS
    heading: str


def read_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"results_index: {path}: {e}") from e


def first_heading(readme):
    for line in readme.read_text().splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return readme.parent.name


def records_date(archive):
    """The newest .jsonl member's time in records.tar.xz (UTC), the day its last record was written."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            times = [m.mtime for m in tar.getmembers() if m.isfile() and m.name.endswith((".jsonl", ".jsonl.gz"))]
    except (OSError, tarfile.TarError) as e:
        raise InputError(f"results_index: {archive}: {e}") from e
    return datetime.fromtimestamp(max(times), UTC).strftime("%Y-%m-%d") if times else None


def run_date(report, manifest, folder):
    """A date the files state: report.json's or reproduce.json's "date", else the records' newest."""
    for source in (report, manifest or {}):
        if source.get("date"):
            return str(source["date"])
    archive = folder / "records.tar.xz"
    return (records_date(archive) if archive.is_file() else None) or DASH


def is_card(folder):
    """A card's folder: not a dated session's, and holding a paper's folder with its report.json."""
    return (
        folder.is_dir()
        and not SESSION.search(folder.name)
        and any((folder / paper / "report.json").is_file() for paper in MODULES)
    )


def collect(root):
    """The reports, in the papers' order then the cards', and the other results, by folder."""
    reports, others = [], []
    for top in sorted(p for p in root.iterdir() if p.is_dir()):
        if not is_card(top):
            if (top / "README.md").is_file():
                others.append(Other(top.name, first_heading(top / "README.md")))
            continue
        for sub in sorted(p for p in top.iterdir() if p.is_dir()):
            rel = f"{top.name}/{sub.name}"
            if not (sub / "report.json").is_file():
                if (sub / "README.md").is_file():
                    others.append(Other(rel, first_heading(sub / "README.md")))
                continue
            report = read_json(sub / "report.json")
            manifest = read_json(sub / "reproduce.json") if (sub / "reproduce.json").is_file() else None
            steps = (manifest or {}).get("steps", [])
            seconds = [s["seconds"] for s in steps if isinstance(s.get("seconds"), (int, float))]
            for name, p in report.get("papers", {}).items():
                reports.append(
                    Report(
                        card=top.name,
                        folder=rel,
                        paper=name,
                        title=p.get("title", name),
                        tables=p.get("tables", []),
                        figures=p.get("figures", []),
                        verdicts=p.get("verdicts", []),
                        not_reproduced=p.get("not_reproduced", []),
                        build=report.get("winnow") or (manifest or {}).get("winnow") or DASH,
                        date=run_date(report, manifest, sub),
                        seconds=sum(seconds) if seconds else None,
                        command=(manifest or {}).get("command", ""),
                    )
                )
    order = {name: i for i, name in enumerate(MODULES)}
    reports.sort(key=lambda r: (order.get(r.paper, len(order)), r.paper, r.card, r.folder))
    return reports, others


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True)


def tracked_sizes(root):
    """{path relative to root: bytes} of the files a commit would hold under root: those git tracks or
    would add (not ignored); every file where root is no checkout's or one it ignores (a test's tree in
    the build folder). Less the page this module writes: its own size must not change what it says."""
    root = pathlib.Path(root).resolve()
    try:
        in_checkout = git(root, "check-ignore", "-q", str(root)).returncode == 1  # 0: ignored, 128: no checkout
    except OSError:  # no git at all
        in_checkout = False
    if in_checkout:
        listed = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:
        names = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    sizes = {}
    for name in names:
        path = root / name
        if name != PAGE and path.is_file():
            sizes[name] = path.stat().st_size
    return sizes


def folder_sizes(sizes, depth=2):
    """Bytes per folder, `depth` levels deep (a card's paper folders), largest first."""
    out = {}
    for name, size in sizes.items():
        parts = name.split("/")[:-1][:depth]
        key = "/".join(parts) + "/" if parts else "(top)"
        out[key] = out.get(key, 0) + size
    return sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))


def mb(n):
    return f"{n / 1e6:.1f} MB"


def card_label(card):
    return card.upper() if re.fullmatch(r"[a-z]\d+", card) or card == "cpu" else card


def count(items, key):
    return sum(1 for x in items if x.get(key))


def verdict_counts(r):
    n = {v: sum(1 for x in r.verdicts if x.get("verdict") == v) for v in ("holds", "changed", "not measured")}
    text = f"{n['holds']} / {n['changed']} / {n['not measured']}"
    if r.not_reproduced:
        text += f" (+{len(r.not_reproduced)} not reproduced)"
    return text


def shorten(text, limit=HEADLINE_CHARS):
    """The evidence's first clauses that fit, cut at a clause ('; ') or else a word, with … for the rest."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    clauses = text.split("; ")
    kept = clauses[0]
    for c in clauses[1:]:
        if len(kept) + 2 + len(c) > limit:
            break
        kept += "; " + c
    if len(kept) > limit:
        kept = kept[:limit].rsplit(" ", 1)[0]
    return kept + " …"


def judged(r):
    return [v for v in r.verdicts if v.get("verdict") in ("holds", "changed") and v.get("evidence")]


def headline(r):
    """The finding a reader wants first: the first judged one against a library or bound, else the first
    judged one; None when nothing was judged."""
    vs = judged(r)
    against = [v for v in vs if BASELINES.search(v["finding"] + " " + v["evidence"])]
    return (against or vs or [None])[0]


def verdict_line(v):
    said = v.get("evidence") or v.get("reason") or ""
    return f"**{v.get('verdict')}**: {v.get('finding')}" + (f" ({shorten(said)})" if said else "")


def hours(seconds):
    if seconds is None:
        return DASH
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def cell(text):
    return text.replace("|", "\\|")


def page(reports, others, sizes):
    total = sum(sizes.values())
    md = [
        "# Results",
        "",
        f"<!-- Made by `{COMMAND}` from the files below: change those and run it again, not this page. -->",
        "",
        "`<card>/<paper>/` holds the newest `winnow reproduce <paper>` run on that card: `report.md` (the tables "
        "beside the published numbers, a verdict per finding), `report.json`, the figures, `records.tar.xz` (the "
        "records) and `reproduce.json` (the command, the build, each step and its time). To redraw a report from its "
        "records: `tar -xJf records.tar.xz` and `python3 tools/report/reproduce.py <paper>`. Timings compare only "
        "within one card.",
        "",
        "## The papers' reports",
        "",
    ]
    if reports:
        md += [
            "| paper | card | report | tables | figures | holds / changed / not measured | build | date | run time |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in reports:
            md.append(
                f"| {cell(r.title)} | {card_label(r.card)} | [{r.folder}/]({r.folder}/report.md) "
                f"| {count(r.tables, 'filled')} of {len(r.tables)} | {count(r.figures, 'drawn')} of {len(r.figures)} "
                f"| {verdict_counts(r)} | {r.build} | {r.date} | {hours(r.seconds)} |"
            )
        md += ["", "## What each run found", ""]
        for r in reports:
            md += [f"### {r.title}: {card_label(r.card)}", ""]
            md += [f"[{r.folder}/report.md]({r.folder}/report.md)" + (f", made by `{r.command}`" if r.command else "")]
            md += [""] + [f"- {verdict_line(v)}" for v in r.verdicts]
            md += [f"- not reproduced: {x}" for x in r.not_reproduced]
            md += [""]
    else:
        md += ["No `<card>/<paper>/report.json` here yet.", ""]
    if others:
        md += ["## Other results", ""]
        md += [f"- [{o.folder}/]({o.folder}/README.md): {o.heading}" for o in others]
        md += [""]
    example = reports[0].folder if reports else "h200/redzone"
    md += [
        "## Older runs",
        "",
        "A folder holds its newest run; git keeps the ones before it. "
        f"`git log -- docs/results/{example}` lists the commits that changed it, and "
        f"`git show COMMIT:docs/results/{example}/report.md` shows the report as one of them left it.",
        "",
        "## Size",
        "",
        f"docs/results holds {mb(total)} in {len(sizes)} files, within a budget of {BUDGET_MB} MB "
        "(tools/report/tests/test_repository.py checks it). The largest folders:",
        "",
    ]
    md += [f"- {name}: {mb(size)}" for name, size in folder_sizes(sizes)[:5]]
    return "\n".join(md) + "\n"


def how_fast(reports, link_prefix):
    """README.md's fragment: a table per card, each paper's headline against CUB, thrust or the roofline
    where its report has one (else its first judged finding), with the figures that decide it, linked to
    the report."""
    md = [BEGIN]
    cards = sorted({r.card for r in reports})
    for card in cards:
        rows = []
        for r in (r for r in reports if r.card == card):
            v = headline(r)
            if v:
                paper = r.title.split(":")[0]
                link = f"{link_prefix}{r.folder}/report.md"
                rows.append(
                    f"| [{cell(paper)}]({link}) | {cell(v['finding'])} | **{v['verdict']}** | {cell(shorten(v['evidence']))} |"
                )
        if rows:
            md += [
                "",
                f"**{card_label(card)}**",
                "",
                "| paper | finding | verdict | measured |",
                "|---|---|---|---|",
            ] + rows
    if not cards:
        md += ["", "No report in docs/results yet."]
    md += ["", END]
    return "\n".join(md)


def with_fragment(readme_text, fragment, readme):
    begin, end = readme_text.find(BEGIN), readme_text.find(END)
    if begin < 0 or end < begin:
        raise InputError(f"results_index: {readme}: no {BEGIN} … {END} markers")
    return readme_text[:begin] + fragment + readme_text[end + len(END) :]


def make(root, readme=None):
    """{path: the text it should hold}: RESULTS/README.md and, given one, the README with its fragment."""
    root = pathlib.Path(root)
    reports, others = collect(root)
    out = {root / PAGE: page(reports, others, tracked_sizes(root))}
    if readme:
        readme = pathlib.Path(readme)
        prefix = os.path.relpath(root, readme.resolve().parent if readme.exists() else readme.parent)
        prefix = pathlib.PurePath(prefix).as_posix().rstrip("/") + "/"
        out[readme] = with_fragment(readme.read_text(), how_fast(reports, prefix), readme)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--readme")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    root = pathlib.Path(a.results)
    if not root.is_dir():
        print(f"results_index: {root} is not a folder", file=sys.stderr)
        return 2
    try:
        files = make(root.resolve(), a.readme and pathlib.Path(a.readme).resolve())
    except (InputError, OSError) as e:
        print(e, file=sys.stderr)
        return 2
    stale = [p for p, text in files.items() if not p.is_file() or p.read_text() != text]
    if a.check:
        for p in stale:
            print(f"results_index: {p} is stale: run {COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    for p in stale:
        p.write_text(files[p])
        print(f"results_index: wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
