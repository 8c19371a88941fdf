#!/usr/bin/env python3
"""Checks a `winnow reproduce` folder's report.json against its manifest (reproduce.json).

A paper whose every step ran ("done") must have every table filled and every verdict computed
("holds" or "changed", with evidence); a paper none of whose steps could run here (no CUDA in CI)
must say, for each table and verdict, why it is missing; a paper some of whose steps ran (Billeter's:
its GL step on Mesa, not its CUDA one) must fill a table and say why for whatever it leaves out. Figures must be drawn where matplotlib
imports. Exit 1 with one line per failure.
Usage: check_reproduce.py DIR [--papers moreira,cross-api,...]   (--papers: must all be present)
"""

import argparse
import json
import pathlib
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--papers", default="")
    a = ap.parse_args()
    d = pathlib.Path(a.dir)
    manifest = json.loads((d / "reproduce.json").read_text())
    report = json.loads((d / "report.json").read_text())
    if not (d / "report.md").is_file():
        print("no report.md")
        return 1
    try:
        import matplotlib  # noqa: F401

        can_draw = True
    except ImportError:
        can_draw = False

    fails = []
    papers = report["papers"]
    for name in filter(None, a.papers.split(",")):
        if name not in papers:
            fails.append(f"{name}: no report")
    for name, p in papers.items():
        steps = [s for s in manifest["steps"] if name in s["papers"]]
        statuses = {s["status"] for s in steps}
        ran = statuses == {"done"}
        none_ran = "done" not in statuses
        if not (ran or none_ran):
            # Some steps ran and the others could not run here (billeter: gl/geometry on Mesa, no CUDA):
            # a table, a figure or a verdict either has its values or says why not. A failed or
            # interrupted step is a failure, as when every step should have run.
            if not statuses <= {"done", "not run"}:
                fails.append(f"{name}: steps partly ran ({sorted(statuses)})")
                continue
            for t in p["tables"]:
                if not t["filled"] and t.get("missing") in (None, "", "no measured cell"):
                    fails.append(f"{name}: table {t['name']!r} neither filled nor saying why")
            if not p["verdicts"]:
                fails.append(f"{name}: no verdicts")
            for v in p["verdicts"]:
                computed = v["verdict"] in ("holds", "changed") and v.get("evidence")
                reason = v.get("reason") or ""
                if not computed and not (
                    v["verdict"] == "not measured" and reason and not reason.startswith("internal error")
                ):
                    fails.append(f"{name}: {v['finding']!r}: {v['verdict']} ({reason or 'no evidence or reason'})")
            for f in p["figures"]:
                if not f["drawn"] and f.get("missing") in (None, "", "not drawn"):
                    fails.append(f"{name}: figure {f['file']} neither drawn nor saying why")
                if f["drawn"] and not (d / f["file"]).stat().st_size:
                    fails.append(f"{name}: figure {f['file']} is empty")
            if not any(t["filled"] for t in p["tables"]):
                fails.append(f"{name}: steps ran ({sorted(statuses)}) but no table is filled")
            continue
        for t in p["tables"]:
            if ran and not t["filled"]:
                fails.append(f"{name}: table {t['name']!r} not filled: {t.get('missing')}")
            if none_ran and (t["filled"] or not t.get("missing")):
                fails.append(f"{name}: table {t['name']!r} filled or without a reason although nothing ran")
        if not p["verdicts"]:
            fails.append(f"{name}: no verdicts")
        for v in p["verdicts"]:
            if ran and (v["verdict"] not in ("holds", "changed") or not v.get("evidence")):
                fails.append(f"{name}: {v['finding']!r}: {v['verdict']} ({v.get('reason')})")
            if none_ran and (v["verdict"] != "not measured" or not v.get("reason")):
                fails.append(f"{name}: {v['finding']!r}: {v['verdict']} although nothing ran")
        for f in p["figures"]:
            if ran and can_draw and not f["drawn"]:
                fails.append(f"{name}: figure {f['file']} not drawn: {f.get('missing') or f.get('error')}")
            if ran and can_draw and f["drawn"] and not (d / f["file"]).stat().st_size:
                fails.append(f"{name}: figure {f['file']} is empty")
    for line in fails:
        print(line)
    print(f"check_reproduce: {len(papers)} papers, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
