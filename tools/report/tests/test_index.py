"""The results page (winnow_report.index) on a synthetic results tree: two cards, two papers each, a
gallery, fuzz/ and a session folder of the old layout."""

import io
import json
import subprocess
import sys
import tarfile
from datetime import UTC, datetime

import pytest

from winnow_report import index

from .synthetic import PACKAGE_ROOT

DAY = datetime(2031, 3, 4, 22, 30, tzinfo=UTC).timestamp()
REDZONE_FINDINGS = [
    ("Redzone 2 is faster than CUB at k = 2 %", "holds", "CUB / Redzone 2 at k = 2 %: 3.10× (rule: > 1)"),
    ("Redzone's time grows with k", "changed", "time at k = 90 % / time at k = 2 %: 4.0× " + "; more" * 80),
    ("Marking takes a smaller share on one block", "not measured", None),
]
CIS565_FINDINGS = [
    ("For tiny inputs the CPU scan wins", "holds", "CPU / naive at n = 256: 0.10×"),
    ("Thrust's scan is the fastest on large inputs", "holds", "thrust at 16M: 0.51 ms, the others 0.9 ms and more"),
]


def verdicts(findings):
    return [
        {
            "finding": f,
            "source": "§5",
            "verdict": v,
            "evidence": e or "",
            "reason": None if e else "no usable cuda record",
        }
        for f, v, e in findings
    ]


def write_run(folder, paper, title, findings, build, *, tables=(True, False), figures=(True,), date=None, mtime=DAY):
    """RESULTS/<card>/<paper>/ as a committed run leaves it; the records' archive made with `mtime`."""
    folder.mkdir(parents=True)
    p = {
        "title": title,
        "tables": [{"name": f"T{i}", "filled": f, "missing": None if f else "why"} for i, f in enumerate(tables)],
        "figures": [{"file": f"{paper}-f{i}.png", "drawn": d} for i, d in enumerate(figures)],
        "verdicts": verdicts(findings),
        "not_reproduced": ["Table 9: winnow has no such thing"] if paper == "cis565" else [],
    }
    report = {"quick": False, "winnow": build, "figures_error": None, "unknown_papers": [], "papers": {paper: p}}
    if date:
        report["date"] = date
    (folder / "report.json").write_text(json.dumps(report))
    (folder / "report.md").write_text(f"# {title}\n")
    steps = [
        {"kind": "bench", "api": "cuda", "suite": paper, "seconds": 5400.0},
        {"kind": "calibrate", "seconds": 1800},
    ]
    manifest = {"papers": [paper], "winnow": build, "command": f"winnow reproduce {paper} --out R", "steps": steps}
    (folder / "reproduce.json").write_text(json.dumps(manifest))
    with tarfile.open(folder / "records.tar.xz", "w:xz") as tar:
        for name, t in ((f"{paper}/cuda/{paper}.jsonl", mtime), (f"{paper}/cuda/{paper}.status.json", mtime + 86400)):
            data = b'{"schema": 1}\n'
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), t
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "docs" / "results"
    write_run(root / "h200" / "redzone", "redzone", "Bontes & Gain 2024 (Redzone)", REDZONE_FINDINGS, "44a8abb")
    write_run(root / "h200" / "cis565", "cis565", "CIS 565 | scans", CIS565_FINDINGS, "59e21e2", date="2031-02-01")
    write_run(root / "h100" / "redzone", "redzone", "Bontes & Gain 2024 (Redzone)", REDZONE_FINDINGS[1:], "abc1234")
    write_run(root / "h100" / "cis565", "cis565", "CIS 565 | scans", CIS565_FINDINGS, "abc1234", figures=())
    (root / "h200" / "gallery").mkdir()
    (root / "h200" / "gallery" / "README.md").write_text("Intro\n\n## Pictures of every pass\n\ntext\n")
    (root / "fuzz").mkdir()
    (root / "fuzz" / "README.md").write_text("# Fuzzing, five fuzzers\n")
    old = root / "a100-2030-01-02"  # the old layout: a session folder, not a card, though it holds a report
    write_run(old / "redzone", "redzone", "old", REDZONE_FINDINGS, "0000000")
    (old / "README.md").write_text("# A100, an old session\n")
    readme = tmp_path / "README.md"
    readme.write_text(f"# winnow\n\n## How fast\n\n{index.BEGIN}\nold text\n{index.END}\n\n## Build\n")
    return root, readme


def test_a_row_per_paper_and_card_with_what_each_report_holds(tree):
    root, _ = tree
    page = index.make(root)[root / "README.md"]
    rows = [line for line in page.splitlines() if line.startswith("| ") and "report.md" in line]
    # The papers in the report's order (redzone before cis565), then the cards by name.
    assert [r.split(" | ")[2] for r in rows] == [
        "[h100/redzone/](h100/redzone/report.md)",
        "[h200/redzone/](h200/redzone/report.md)",
        "[h100/cis565/](h100/cis565/report.md)",
        "[h200/cis565/](h200/cis565/report.md)",
    ]
    # tables, figures, verdicts, build, the records' newest .jsonl day (not the status file's), the steps' time
    assert rows[1] == (
        "| Bontes & Gain 2024 (Redzone) | H200 | [h200/redzone/](h200/redzone/report.md) | 1 of 2 | 1 of 1 "
        "| 1 / 1 / 1 | 44a8abb | 2031-03-04 | 2.0 h |"
    )
    assert "| 0 / 1 / 1 | abc1234 |" in rows[0]
    # report.json's date comes first; a | in a title is escaped; parts not reproduced are counted
    assert rows[3].startswith("| CIS 565 \\| scans | H200 |")
    assert "| 2 / 0 / 0 (+1 not reproduced) | 59e21e2 | 2031-02-01 |" in rows[3]
    assert "| 0 of 0 |" in rows[2]
    assert "a100" not in "\n".join(rows)


def test_each_runs_findings_with_their_evidence_shortened(tree):
    root, _ = tree
    page = index.make(root)[root / "README.md"]
    section = page.split("### Bontes & Gain 2024 (Redzone): H200")[1].split("\n### ")[0]
    assert "made by `winnow reproduce redzone --out R`" in section
    assert (
        "- **holds**: Redzone 2 is faster than CUB at k = 2 % (CUB / Redzone 2 at k = 2 %: 3.10× (rule: > 1))"
        in section
    )
    long_line = next(line for line in section.splitlines() if "grows with k" in line)
    assert long_line.endswith("; more …)")
    assert len(long_line) < 300
    assert "- **not measured**: Marking takes a smaller share on one block (no usable cuda record)" in section
    assert "- not reproduced: Table 9: winnow has no such thing" in page


def test_other_results_by_their_first_heading_and_the_way_to_older_runs(tree):
    root, _ = tree
    page = index.make(root)[root / "README.md"]
    others = page.split("## Other results")[1].split("\n## ")[0]
    assert others.strip().splitlines() == [
        "- [a100-2030-01-02/](a100-2030-01-02/README.md): A100, an old session",
        "- [fuzz/](fuzz/README.md): Fuzzing, five fuzzers",
        "- [h200/gallery/](h200/gallery/README.md): Pictures of every pass",
    ]
    assert "`git log -- docs/results/h100/redzone`" in page


def test_the_size_is_every_file_but_the_page_itself(tree):
    root, _ = tree
    files = [p for p in root.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    page = index.make(root)[root / "README.md"]
    assert f"docs/results holds {total / 1e6:.1f} MB in {len(files)} files, within a budget of 20 MB" in page
    (root / "README.md").write_text(page)
    assert index.make(root)[root / "README.md"] == page  # written, it does not count itself


def test_the_same_tree_gives_the_same_bytes(tree, tmp_path):
    root, readme = tree
    first = index.make(root, readme)
    # Made again elsewhere, its files written in another order: the same text.
    copy = tmp_path / "copy" / "docs" / "results"
    for path in sorted((p for p in root.rglob("*") if p.is_file()), reverse=True):
        target = copy / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    (tmp_path / "copy" / "README.md").write_text(readme.read_text())
    again = index.make(copy, tmp_path / "copy" / "README.md")
    assert list(again.values()) == list(first.values())


def test_how_fast_takes_the_finding_against_a_library_and_keeps_the_rest_of_the_readme(tree):
    root, readme = tree
    text = index.make(root, readme)[readme]
    assert text.startswith("# winnow\n\n## How fast\n\n" + index.BEGIN)
    assert text.endswith(index.END + "\n\n## Build\n")
    assert "old text" not in text
    fragment = text.split(index.BEGIN)[1].split(index.END)[0]
    h100, h200 = fragment.split("**H200**")
    assert "**H100**" in h100
    # H200's Redzone: the CUB finding; its CIS 565: thrust's, though another finding comes first.
    assert "| paper | finding | verdict | measured |" in h200
    assert (
        "| [Bontes & Gain 2024 (Redzone)](docs/results/h200/redzone/report.md) | Redzone 2 is faster than CUB at "
        "k = 2 % | **holds** | CUB / Redzone 2 at k = 2 %: 3.10× (rule: > 1) |"
    ) in h200
    assert "| Thrust's scan is the fastest on large inputs | **holds** |" in h200
    assert "tiny inputs" not in h200
    # H100's Redzone has no finding against a library: its first judged one.
    assert "(docs/results/h100/redzone/report.md) | Redzone's time grows with k | **changed** |" in h100


def test_a_readme_without_the_markers_is_refused(tree):
    root, readme = tree
    readme.write_text("# winnow\n")
    with pytest.raises(index.InputError, match="markers"):
        index.make(root, readme)


def test_an_empty_tree_says_so(tmp_path):
    page = index.make(tmp_path)[tmp_path / "README.md"]
    assert "No `<card>/<paper>/report.json` here yet." in page


def test_check_finds_a_stale_page_and_the_command_writes_it(tree):
    root, readme = tree
    command = [sys.executable, str(PACKAGE_ROOT / "results_index.py"), str(root), "--readme", str(readme)]
    check = subprocess.run([*command, "--check"], capture_output=True, text=True)
    assert check.returncode == 1
    assert "README.md is stale" in check.stderr
    wrote = subprocess.run(command, capture_output=True, text=True)
    assert wrote.returncode == 0, wrote.stderr
    assert subprocess.run([*command, "--check"], capture_output=True, text=True).returncode == 0
    (root / "h200" / "redzone" / "report.json").write_text("{not json")
    bad = subprocess.run(command, capture_output=True, text=True)
    assert bad.returncode == 2
    assert "report.json" in bad.stderr


def test_the_headline_is_held_to_a_library_a_bound_or_the_oracle():
    def run_of(findings):
        return index.Report("h200", "h200/x", "x", "x", [], [], verdicts(findings), [], "b", "—", None, "")

    first = ("BT wins the most cells", "holds", "BT 18 of 18")
    for against in ("CUB / ours 1.2×", "92 % of the roofline", "adaptive / oracle 1.02", "thrust 0.1 ms"):
        assert index.headline(run_of([first, ("the finding", "changed", against)]))["finding"] == "the finding"
    assert index.headline(run_of([("unjudged CUB", "not measured", None), first]))["finding"] == first[0]
    assert index.headline(run_of([("unjudged", "not measured", None)])) is None


def test_sizes_in_a_checkout_count_what_a_commit_holds_and_all_of_an_ignored_tree(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("ignored/\n*.log\n")
    results = tmp_path / "results"
    for folder in (results, tmp_path / "ignored" / "results"):
        folder.mkdir(parents=True)
        (folder / "a.md").write_text("12345")
        (folder / "run.log").write_text("123")
        (folder / "README.md").write_text("the page itself")
    assert index.tracked_sizes(results) == {"a.md": 5}  # untracked but not ignored: a commit would hold it
    assert index.tracked_sizes(tmp_path / "ignored" / "results") == {"a.md": 5, "run.log": 3}
