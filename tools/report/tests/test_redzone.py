"""Bontes & Gain 2024 (Redzone): Figs. 4-6 on CUDA (here: why not, without CUDA), Fig. 6 over n from
suite redzone-r, Fig. 6's per-phase panel, and the preserve list (their future work) on the cpu."""

import gzip
import json

from winnow_report.papers.common import Figure, Rec
from winnow_report.papers.redzone import fig6_phases

from .synthetic import SIZES, assert_says_why_not, has_matplotlib, record, run, write_jsonl


def test_without_cuda_says_why_not(quick):
    # The preserve list's table and figure on the cpu ran.
    assert_says_why_not(
        quick.report, "redzone", ran={"Future work: compaction from a preserve list (cpu)", "redzone-preserve.png"}
    )


def test_the_preserve_list_against_redzone_across_p(quick):
    cpu = quick.md.split("### Future work: compaction from a preserve list (cpu)")[1].split("###")[0]
    assert "| 2 % | 1M | 4 MiB | 30838 | 849 | 6291 | 8389 | 0.03× |\n" in cpu
    assert f"| 98 % | 1M | 4 MiB | 639 | 41114 | 6291 | 8389 | {6291456 / 639145.6:.2f}× |\n" in cpu
    assert "share" not in cpu.split("\n\n")[2]  # the gather is its one phase: no column that always reads 100 %
    cuda = next(
        t
        for t in quick.report["papers"]["redzone"]["tables"]
        if t["name"] == "Future work: compaction from a preserve list (cuda)"
    )
    assert not cuda["filled"]
    assert "no CUDA device" in cuda["missing"]


def test_the_r_cases_over_n_are_tabled_and_drawn(tmp_path):
    tmp = tmp_path
    published = {"batch": "0", "early": "off", "order": "off", "prefetch": "off", "shared": "off"}
    recs = []
    for size in ("128K", "1M", "16M"):
        for k in ("0.02", "0.1", "0.5"):
            for r in ("0", "0.5", "1"):
                for seed, slower in ((1, 1.0), (2, 4.0)):  # log mean: 2 × the first seed
                    t = SIZES[size] * float(k) * (2 - float(r)) * slower
                    noisy = size == "128K" and k == "0.02" and r == "0"
                    recs.append(
                        record(
                            "cuda",
                            "redzone2",
                            published,
                            f"removal:{size}:k={k}:r={r}:seed={seed}",
                            t,
                            phases=["mark", "fill", "orphans"],
                            noise=0.2 if noisy else 0.01,
                        )
                    )
    # Interrupted after the first seed of the last point: its mean is of one seed, and says so.
    recs.pop()
    write_jsonl(tmp / "cuda" / "redzone-r.jsonl", recs)
    (tmp / "cuda" / "redzone-r.status.json").write_text(
        json.dumps({"complete": False, "records": len(recs), "planned": 60, "not_run": {}})
    )
    r = run(tmp, "--paper", "redzone", "--out", tmp / "out")
    assert r.returncode == 0, r.stderr
    md = (tmp / "out" / "report.md").read_text()
    # The header names the suite's own file and that it is incomplete, not only the main suite's;
    # its noisy records are listed with the main suite's; it names the card (no main suite names
    # it here) and the builds that made them, and how many runs the merged records stand for.
    assert "removal:128K:k=0.02:r=0" in md.split("### Noisy records")[1]
    points = (len(recs) + 1) // 2
    used = (
        f"cuda/redzone-r.jsonl (NVIDIA Test GPU, winnow abc1234): {len(recs)} runs used "
        f"({points} points, their seeds merged)"
    )
    assert used in md
    assert f"interrupted: {len(recs)} of 60 planned records (cuda/redzone-r.status.json)" in md
    section = md.split("Fig. 6 over n: the red-zone fraction r")[1].split("\n### ")[0]
    # k = 10 %, r = 50 % at 16M: 2^24 · 0.1 · 1.5 · 2 ns = 5033 µs; a third of it marking.
    row = next(line for line in section.splitlines() if line.startswith("| 10 % | 50 % |"))
    assert "| 5033 |" in row
    assert "16M (64 MiB) [µs]" in section
    assert "33 %" in row
    assert "| 90 % |" not in section
    # k = 50 %, r = 100 % at 16M, seed 1 alone: 2^24 · 0.5 · 1 ns = 8389 µs.
    assert "| 50 % | 100 % |" in section
    assert "| 8389 (1 of 2 seeds) |" in section
    assert "of 2 seeds" not in row
    figs = {f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["redzone"]["figures"]}
    fig = figs["redzone-fig6-n.png"]
    assert "Fewer seeds than the rest: k = 50 %, r = 100 %, 16M (1 of 2)." in fig["caption"]
    assert "NVIDIA Test GPU, cuda, winnow abc1234" in fig["title"]  # its own records' card, not '?'
    if has_matplotlib():
        assert fig["drawn"], fig
    # Kept compressed, as committed results are, the records read the same.
    with gzip.open(tmp / "cuda" / "redzone-r.jsonl.gz", "wt") as f:
        f.write((tmp / "cuda" / "redzone-r.jsonl").read_text())
    (tmp / "cuda" / "redzone-r.jsonl").unlink()
    r = run(tmp, "--paper", "redzone", "--out", tmp / "out-gz")
    assert r.returncode == 0, r.stderr
    md_gz = (tmp / "out-gz" / "report.md").read_text()
    assert used.replace(".jsonl", ".jsonl.gz") in md_gz
    assert row in md_gz
    # Beside a main suite of the same card, the card is named once, in the main suite's line.
    write_jsonl(tmp / "cuda" / "redzone.jsonl", recs[:1])
    r = run(tmp, "--paper", "redzone", "--out", tmp / "out-both")
    assert r.returncode == 0, r.stderr
    md_both = (tmp / "out-both" / "report.md").read_text()
    assert f"- and cuda/redzone-r.jsonl.gz (winnow abc1234): {len(recs)} runs used" in md_both
    assert "cuda/redzone.jsonl: 1 record used, 0 skipped" in md_both  # nothing merged: records
    # Without the suite's records the figure says why.
    (tmp / "cuda" / "redzone-r.jsonl.gz").unlink()
    r = run(tmp, "--paper", "redzone", "--out", tmp / "out2")
    assert r.returncode == 0, r.stderr
    figs = {
        f["file"]: f for f in json.loads((tmp / "out2" / "report.json").read_text())["papers"]["redzone"]["figures"]
    }
    assert not figs["redzone-fig6-n.png"]["drawn"]
    assert "redzone-r" in figs["redzone-fig6-n.png"]["missing"]
    assert not figs["redzone-fig6-phases.png"]["drawn"]
    assert "redzone-r" in figs["redzone-fig6-phases.png"]["missing"]


def test_fig6_phases_draws_each_phase_and_its_share_per_k_and_r():
    """Fig. 6's large panel: a row per k, a panel per r, a line per phase and the phases' shares stacked."""

    class Paper:  # what fig6_phases uses of a paper
        figures = []

        def figure(self, *args, **kw):
            self.figures.append(Figure(*args, **kw))
            return self.figures[-1]

    cells = {}
    for k in (0.02, 0.5):
        for r in (0.0, 0.5, 1.0):
            for n in (1 << 15, 1 << 20):
                d = record(
                    "cuda", "redzone2", {}, f"removal:{n}:k={k}:r={r:g}", 4e3, n=n, phases=["mark", "fill", "orphans"]
                )
                for ph, part in zip(d["phases"], (1, 2, 1), strict=True):  # mark 25 %, fill 50 %, orphans 25 %
                    ph["median_ns"] = 1e3 * part * (1 + r)
                d["total"]["median_ns"] = 4e3 * (1 + r)
                cells[(k, r, n)] = Rec(d, "t")
    paper = Paper()
    fig6_phases(paper, cells, "Test GPU", "", "no records")
    f = paper.figures[0]
    assert f.file == "redzone-fig6-phases.png"
    assert [len(row) for row in f.rows] == [3, 3]
    panel = f.rows[1][2]
    assert panel.title == "k = 50 %, r = 100 %"
    assert [s.label for s in panel.series] == ["mark", "fill", "orphans"]
    assert panel.series[1].ys == [4.0, 4.0]  # fill: 2 µs × (1 + r), in µs
    xs, shares = panel.shares
    assert xs == [1 << 15, 1 << 20]
    assert [(ph, [round(v) for v in vs]) for ph, vs in shares] == [
        ("mark", [25, 25]),
        ("fill", [50, 50]),
        ("orphans", [25, 25]),
    ]
    # A panel whose records lack a phase keeps every phase in its place (greys are by place), at 0 %,
    # and the shares of what ran still stack to 100 (the total of merged seeds need not add up).
    for n in (1 << 15, 1 << 20):
        cells[(0.02, 0.0, n)].phases.pop("orphans")
        cells[(0.02, 0.0, n)].total *= 1.5
    paper = Paper()
    paper.figures = []
    fig6_phases(paper, cells, "Test GPU", "", "no records")
    _, shares = paper.figures[0].rows[0][0].shares
    assert [(ph, [round(v) for v in vs]) for ph, vs in shares] == [
        ("mark", [33, 33]),
        ("fill", [67, 67]),
        ("orphans", [0, 0]),
    ]
