#!/usr/bin/env python3
"""Checks a merged reproduction (`reproduce --devices`, or tools/slurm's merge job) against one
unsharded run of the same paper on the same machine.

Usage: same_report.py ONE MERGED REPORT_SCRIPT

Timings differ between two runs, so the reports cannot be compared as they are. What must hold:
  1. every results file of ONE is in MERGED, with the records of the same (algorithm, params, case)
     in the same order, and MERGED has no other;
  2. MERGED's status files say complete, with as many records as planned, as ONE's do;
  3. the report REPORT_SCRIPT draws from MERGED's records laid out as the unsharded run laid out its
     own (ONE's folder with its records and reproduce.json replaced by MERGED's) is MERGED's
     report.md, byte for byte: what merge and the reproduction of the merged folder write besides
     the records changes nothing in the report.
"""

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile


def keys(path):
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            out.append((r["algorithm"], json.dumps(r["params"], sort_keys=True), r["case"]))
    return out


def results_files(root):
    return sorted(
        p.relative_to(root)
        for p in root.glob("*/*.jsonl")
        if p.name != "calibrate.jsonl"
        and not p.name.endswith((".seeds.jsonl", ".journal.jsonl"))
        and p.parent.name != "shards"
    )


def main():
    one, merged, script = (pathlib.Path(a) for a in sys.argv[1:4])
    failures = []
    files = results_files(one)
    if not files:
        failures.append(f"{one} holds no records")
    if files != results_files(merged):
        failures.append(f"results files differ: {files} vs {results_files(merged)}")
    for rel in files:
        a, b = keys(one / rel), keys(merged / rel) if (merged / rel).exists() else []
        if a != b:
            failures.append(f"{rel}: {len(a)} records unsharded, {len(b)} merged, or another order")
        sa = json.loads((one / rel).with_suffix(".status.json").read_text())
        sb = json.loads((merged / rel).with_suffix(".status.json").read_text())
        for s, name in ((sa, "unsharded"), (sb, "merged")):
            if not s.get("complete") or s.get("records") != s.get("planned") or s.get("records") != len(a):
                failures.append(f"{rel}: the {name} status says {s}")
    with tempfile.TemporaryDirectory() as tmp:
        laid = pathlib.Path(tmp) / "laid"
        shutil.copytree(one, laid)
        for p in laid.glob("*.md"):
            p.unlink()
        for p in merged.glob("*/*.jsonl"):
            if p.parent.name != "shards":
                shutil.copy(p, laid / p.relative_to(merged))
        shutil.copy(merged / "reproduce.json", laid / "reproduce.json")
        # The python winnow runs the report with (Debian's, where matplotlib is), so figures match too.
        python = "/usr/bin/python3" if pathlib.Path("/usr/bin/python3").exists() else sys.executable
        subprocess.run([python, str(script), str(laid)], check=True, stdout=subprocess.DEVNULL)
        if (laid / "report.md").read_text() != (merged / "report.md").read_text():
            failures.append(
                "the merged folder's report.md differs from the one its records give laid out unsharded "
                f"(diff {laid}/report.md {merged}/report.md)"
            )
            subprocess.run(["diff", str(laid / "report.md"), str(merged / "report.md")])
    for f in failures:
        print("same_report:", f)
    if not failures:
        print(f"same_report: {len(files)} results files, the same records in the same order, the same report")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
