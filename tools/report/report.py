#!/usr/bin/python3
"""Turns a winnow results folder (*.jsonl from `winnow bench`) into report.md and PNG plots.

Usage: tools/report/report.py RESULTS_DIR [--out DIR]
(Debian's python3, where python3-matplotlib lives.)

report.md holds, per suite, one table per case family with the median time of every phase, the
total, the derived bandwidth and whether the result was verified. For removal-list cases (the
Redzone paper's experiments) it also draws Fig. 7's layout: total time against n, one panel per k.
"""
import argparse
import collections
import json
import pathlib
import sys


def load(folder):
    records = []
    for path in sorted(pathlib.Path(folder).glob("*.jsonl")):
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit(f"report: {path}:{number}: not JSON ({e})")
    if not records:
        sys.exit(f"report: no records (*.jsonl) in {folder}")
    return records


def ms(ns):
    return f"{ns / 1e6:.3f}"


def case_key(spec):
    """(family, keys without the size, n) — rows of a table share family and keys."""
    parts = spec.split(":")
    return parts[0], ":".join(p for p in parts[2:] if not p.startswith("seed=")), parts[1] if len(parts) > 1 else ""


def params_text(p):
    return ",".join(f"{k}={v}" for k, v in sorted(p.items())) or "-"


def table(rows):
    phases = []
    for r in rows:
        for p in r["phases"]:
            if p["name"] not in phases:
                phases.append(p["name"])
    head = ["algorithm", "params", "n"] + [f"{p} [ms]" for p in phases] + ["total [ms]", "GB/s", "result"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in sorted(rows, key=lambda r: (r["n"], r["algorithm"])):
        if r["skipped"]:
            cells = [r["algorithm"], params_text(r["params"]), str(r["n"])] + ["-"] * (len(phases) + 2)
            cells.append("skipped: " + r["skipped"])
        else:
            by = {p["name"]: p["median_ns"] for p in r["phases"]}
            total = r["total"]["median_ns"]
            moved = r["bytes_read"] + r["bytes_written"]
            cells = [r["algorithm"], params_text(r["params"]), str(r["n"])]
            cells += [ms(by[p]) if p in by else "" for p in phases]
            cells += [ms(total), f"{moved / total:.1f}" if total > 0 else "-", "ok" if r["verified"] else "WRONG"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def plot_removal(rows, path):
    """Fig. 7 of Bontes & Gain: total time against n per algorithm, one panel per k."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_k = collections.defaultdict(list)
    for r in rows:
        if not r["skipped"] and r["case"].startswith("removal:"):
            k = dict(p.split("=") for p in r["case"].split(":")[2:])["k"]
            by_k[float(k)].append(r)
    if not by_k:
        return False
    ks = sorted(by_k)
    fig, axes = plt.subplots(1, len(ks), figsize=(4 * len(ks), 3.6), squeeze=False)
    for ax, k in zip(axes[0], ks):
        lines = collections.defaultdict(list)
        for r in by_k[k]:
            lines[(r["algorithm"], params_text(r["params"]))].append((r["n"], r["total"]["median_ns"] / 1e3))
        for (algo, _), pts in sorted(lines.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=algo)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"k = {k:.0%}")
        ax.set_xlabel("n (elements)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("median total time [µs], marking included")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--out", help="output folder (default: RESULTS)")
    a = ap.parse_args()
    out = pathlib.Path(a.out or a.results)
    out.mkdir(parents=True, exist_ok=True)
    records = load(a.results)

    first = records[0]
    md = ["# winnow results", "", f"- winnow {first['winnow']}", f"- host: {first['host']}"]
    devices = sorted({(r["api"], r["device"], r["driver"]) for r in records if r["device"]})
    md += [f"- {api}: {dev} ({drv})" for api, dev, drv in devices]
    md += [f"- command: `{c}`" for c in sorted({r["command"] for r in records})]
    md += [f"- {sum(not r['skipped'] for r in records)} runs, {sum(bool(r['skipped']) for r in records)} skipped, "
           f"{sum(not r['skipped'] and not r['verified'] for r in records)} wrong", ""]
    md += ["Times are medians over the repetitions in ms; GB/s = (bytes read + written by the algorithm's own traffic "
           "model) / median total time.", ""]

    groups = collections.defaultdict(list)
    for r in records:
        family, keys, _ = case_key(r["case"])
        groups[(family, keys)].append(r)
    for (family, keys), rows in sorted(groups.items()):
        md += [f"## {family}{':' + keys if keys else ''}", "", table(rows), ""]

    if plot_removal(records, out / "removal.png"):
        md += ["## Removal lists: total time against n", "", "![total time against n, one panel per k](removal.png)", ""]
    (out / "report.md").write_text("\n".join(md))
    print(f"report: wrote {out / 'report.md'}")


if __name__ == "__main__":
    main()
