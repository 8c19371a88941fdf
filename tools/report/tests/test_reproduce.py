"""The report as a whole on the synthetic quick folder: its exit status, its files, every paper's
figures, and what it does without matplotlib or with input it cannot read."""

import json
import shutil
import types

from winnow_report import reproduce

from .synthetic import has_matplotlib, run


def test_exit_and_files(quick):
    assert quick.result.returncode == 0, quick.result.stderr
    assert quick.report is not None
    assert list(quick.report["papers"]) == ["moreira", "cross-api", "redzone", "billeter", "cpu", "limit"]


def test_figures(quick):
    expected = {
        "moreira-fig8-10-density.png",
        "moreira-fig7.png",
        "cpu-fig7.png",
        "cpu-fig7-phases.png",
        "cpu-fig7-shares.png",
        "redzone-preserve.png",
        "limit-roofline.png",
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


def test_the_step_table_says_where_the_seconds_went_where_the_manifest_does():
    timed = {"timed": 12.0, "warmup": 3.5, "make": 1.0, "upload": 0.5, "check": 2.0, "other": 1.0}
    steps = [
        {"kind": "bench", "api": "cpu", "suite": "cpu", "status": "done", "seconds": 20.0, "time": timed},
        {"kind": "calibrate", "api": "cuda", "suite": None, "status": "failed", "seconds": 1.0, "exit": 1},
    ]
    table = reproduce.steps_table(types.SimpleNamespace(manifest={"steps": steps}))
    assert (
        table[0] == "| step | api | suite | status | seconds | timed | warmup | make | upload | check | other | note |"
    )
    assert table[2] == "| bench | cpu | cpu | done | 20.0 | 12.0 | 3.5 | 1.0 | 0.5 | 2.0 | 1.0 |  |"
    assert table[3] == "| calibrate | cuda | — | failed | 1.0 | — | — | — | — | — | — | exit 1 |"
    # A manifest from before reproduce.json said where the time went: the table as it was.
    for s in steps:
        s.pop("time", None)
    table = reproduce.steps_table(types.SimpleNamespace(manifest={"steps": steps}))
    assert table[0] == "| step | api | suite | status | seconds | note |"
