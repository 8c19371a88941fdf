"""The report as a whole on the synthetic quick folder: its exit status, its files, every paper's
figures, and what it does without matplotlib or with input it cannot read."""

import json
import shutil

from .synthetic import has_matplotlib, run


def test_exit_and_files(quick):
    assert quick.result.returncode == 0, quick.result.stderr
    assert quick.report is not None
    assert list(quick.report["papers"]) == ["moreira", "cross-api", "redzone", "billeter", "cpu"]


def test_figures(quick):
    expected = {
        "moreira-fig8-10-density.png",
        "moreira-fig7.png",
        "cpu-fig7.png",
        "cpu-fig7-phases.png",
        "cpu-fig7-shares.png",
        "redzone-preserve.png",
    }
    drawn = {f["file"] for p in quick.report["papers"].values() for f in p["figures"] if f["drawn"]}
    if has_matplotlib():
        assert drawn == expected
        for name in expected:
            assert (quick.dir / name).stat().st_size > 10000, name
    else:
        assert drawn == set()


def test_no_matplotlib(quick, tmp_path):
    out = tmp_path / "nompl"
    r = run(quick.dir, "--out", out, hide_matplotlib=True)
    assert r.returncode == 0, r.stderr
    report = json.loads((out / "report.json").read_text())
    md = (out / "report.md").read_text()
    assert "matplotlib cannot be imported" in md
    for p in report["papers"].values():
        for f in p["figures"]:
            assert not f["drawn"]
            assert f["missing"]
    assert not list(out.glob("*.png"))
    assert all(t["filled"] for t in report["papers"]["moreira"]["tables"])


def test_unreadable_input_fails(quick, tmp_path):
    d = tmp_path / "bad"
    shutil.copytree(quick.dir, d)
    with open(d / "gl" / "moreira.jsonl", "a") as f:
        f.write("{not json\n")
    r = run(d)
    assert r.returncode == 2
    assert "not JSON" in r.stderr
