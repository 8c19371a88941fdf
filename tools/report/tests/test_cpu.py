"""Bontes & Gain 2024, the CPU experiment: Fig. 7 (its n sweep, phases, shares and bars), §4.6's adding and
removing in one operation, and what the report says of unverified, noisy and interrupted records."""

import json
import os
import shutil

from .synthetic import SIZES, assert_filled_and_judged, record, run, write_jsonl


def test_measured_and_judged(quick):
    assert_filled_and_judged(quick.report, "cpu")


def test_add_and_remove_is_its_own_table_apart_from_the_sweep(quick):
    # The cpu paper's (the last; redzone's, on CUDA, is not made here).
    section = quick.md.split("### §4.6: adding and removing in one operation")[-1].split("###")[0]
    assert "| 2 % | 10 % | 1153434 |" in section  # 1M + 10 %
    assert "| 10 % | 1 % |" in section
    # The append column is Redzone's append phase: a quarter of its total here (1M, k = 2 %, g = 10 %).
    assert f"| {(40 * 0.12 * 1048576 + 1e4) / 4 / 1e6:.2f} |" in section
    # The gains cases stay out of Fig. 7's n sweep: its 1M rows are the plain cases only.
    fig7 = quick.md.split("### Fig. 7: Redzone against Stencil")[1].split("###")[0]
    assert fig7.count("| 2 % | 1M |") == 1


def test_unverified_listed_not_used(quick):
    assert "failed verification" in quick.md
    assert "cpu/redzone (threads=1) on removal:1M:k=0.02" in quick.md
    # Its 1 ns would be 0.00 ms in the Fig. 7 table; the verified redzone at 1M, k = 2 % is ~0.85 ms.
    row = next(line for line in quick.md.splitlines() if line.startswith("| 2 % | 1M |"))
    assert "| 0.00 |" not in row


def test_noisy_records_are_flagged(quick):
    assert "Noisy records: relative noise over 5%" in quick.md
    assert "cpu/sequential (defaults) on removal:128K:k=0.5:r=uniform:seed=1: 20.0%" in quick.md
    assert "removal:1M:k=0.5:r=uniform:seed=1: 1.0%" not in quick.md


def test_interrupted_is_said(quick):
    assert "interrupted: 42 of 48 planned records" in quick.md


def test_explicit_papers_without_manifest(quick, tmp_path):
    d = tmp_path / "nomanifest"
    shutil.copytree(quick.dir, d)
    os.remove(d / "reproduce.json")
    r = run(d, "--paper", "cpu", "--out", d / "out")
    assert r.returncode == 0, r.stderr
    assert list(json.loads((d / "out" / "report.json").read_text())["papers"]) == ["cpu"]
    assert run(d).returncode == 2  # neither a manifest nor --paper: nothing to report


def test_short_points_are_marked(tmp_path):
    """Suite cpu with the paper's statistics (bench --seeds): a point's time is the logarithmic mean over its
    seeds, and a point an interrupted bench left short of seeds says how many it has."""
    tmp = tmp_path
    recs = []
    for size in ("128K", "1M"):
        for k in ("0.02", "0.9"):
            for algo, per in (("redzone", 40 * float(k)), ("stencil", 3.0), ("sequential", 8.0)):
                for seed, slower in ((1, 1.0), (2, 4.0)):  # log mean: 2 × the first seed
                    recs.append(
                        record(
                            "cpu", algo, {}, f"removal:{size}:k={k}:r=uniform:seed={seed}", SIZES[size] * per * slower
                        )
                    )
    recs.pop()  # the sequential loop at 1M, k = 90 %: seed 1 alone
    # A second variant with one seed, faster than the point's 20-seed mean: it must not stand for the point.
    recs.append(record("cpu", "redzone", {"batches": "9"}, "removal:128K:k=0.02:r=uniform:seed=1", SIZES["128K"] * 0.4))
    write_jsonl(tmp / "cpu" / "cpu.jsonl", recs)
    r = run(tmp, "--paper", "cpu", "--out", tmp / "out")
    assert r.returncode == 0, r.stderr
    md = (tmp / "out" / "report.md").read_text()
    section = md.split("### Fig. 7: Redzone against Stencil")[1].split("\n### ")[0]
    assert "the logarithmic mean of their medians (up to 2 seeds); one with fewer" in section
    # Stencil at 1M: 2^20 · 3 · 2 ns = 6.29 ms; the sequential loop, seed 1 alone: 2^20 · 8 ns = 8.39 ms.
    row = next(line for line in section.splitlines() if line.startswith("| 90 % | 1M |"))
    assert "| 6.29 | 8.39 (1 of 2 seeds) |" in row
    assert "of 2 seeds" not in next(line for line in section.splitlines() if line.startswith("| 2 % | 1M |"))
    # Redzone at 128K, k = 2 %: the two seeds' mean, 2^17 · 0.8 · 2 ns = 0.21 ms, not the one-seed variant's 0.05.
    assert "| 2 % | 128K | 512 KiB | 0.21 |" in section
    # The bars table: per k at the largest n every algorithm ran; the short point says so there too.
    bars = md.split("### Fig. 7 (bars)")[1].split("\n### ")[0]
    assert "| sequential loop | 90 % | 1M | 8.39 (1 of 2 seeds) |" in bars
    assert "| Redzone | 2 % | 1M |" in bars
    figs = {f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["cpu"]["figures"]}
    for name in ("cpu-fig7.png", "cpu-fig7-phases.png", "cpu-fig7-shares.png"):
        assert "Fewer seeds than the rest: k = 90 %, 1M, sequential loop (1 of 2)." in figs[name]["caption"]
    assert "the logarithmic mean over its seeds' medians (up to 2 seeds)" in figs["cpu-fig7.png"]["caption"]
    assert (
        "logarithmic means over up to 2 seeds, the black mark the largest total"
        in figs["cpu-fig7-phases.png"]["caption"]
    )
