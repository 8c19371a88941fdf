"""The CIS 565 write-up: scans timed alone (calibrate's cis565_scan_*), compaction with and without a
scan, the block-size study, the write-up's test program beside ours."""

import json

from winnow_report.papers.cis565 import ms

from .synthetic import has_matplotlib, record, run, write_jsonl


def folder(tmp_path, scans=True):
    """The records and the scans timed alone, the report on them: (report.md, verdicts by finding, report.json's paper)."""
    tmp = tmp_path

    def rec(api, algo, n, phases, params=None):
        r = record(api, algo, params or {}, f"uniform:{n}:p=0.75", sum(phases.values()), n=n, phases=list(phases))
        for ph in r["phases"]:
            ph["median_ns"] = phases[ph["name"]]
        return r

    cpu, cuda, cal = [], [], []

    def scan(name, n, ns, block=None):  # alone at 0.8 × the compactions' scan phase: the tables must read these
        cal.append(
            {
                "api": "cuda",
                "device": "Test GPU",
                "name": f"cis565_scan_{name}_n{n}" + (f"_b{block}" if block else ""),
                "value": 0.8 * ns / 1e3,
                "unit": "µs",
                "how": "test",
            }
        )

    for n, scale in ((256, 1), (253, 1), (4096, 1), (4093, 1), (1 << 24, 4096), ((1 << 24) - 3, 4096)):
        cpu.append(rec("cpu", "sequential", n, {"compact": 4e3 * scale}))
        cpu.append(rec("cpu", "scan_compact", n, {"map": 1e3 * scale, "scan": 1e3 * scale, "scatter": 1e3 * scale}))
        pad = 1.2 if n % 2 else 1.0  # the work-efficient scan 20 % slower at 2^k − 3
        for algo, phase in (("scan_naive", 3e4 * (1 + scale / 100)), ("scan_efficient", 2e4 * (1 + scale / 400) * pad)):
            cuda.append(rec("cuda", algo, n, {"map": 5e3, "scan": phase, "scatter": 5e3}, {"block": "128"}))
            # a compaction at another block: never in a table (the block study is the scans alone)
            cuda.append(rec("cuda", algo, n, {"map": 5e3, "scan": phase / 9, "scatter": 5e3}, {"block": "256"}))
        cuda.append(rec("cuda", "scan_thrust", n, {"map": 5e3, "scan": 1e4 * (1 + scale / 1000), "scatter": 5e3}))
        scan("cpu", n, 1e3 * scale)
        scan("thrust", n, 1e4 * (1 + scale / 1000))
        blocks = (32, 128, 256, 1024) if n == 1 << 24 else (128,)
        for block in blocks:
            slower = {32: 2.0, 128: 1.0, 256: 1.5, 1024: 3.0}[block]
            scan("naive", n, 3e4 * (1 + scale / 100) * slower, block)
            scan("efficient", n, 2e4 * (1 + scale / 400) * pad * slower, block)
    write_jsonl(tmp / "cpu" / "cis565.jsonl", cpu)
    write_jsonl(tmp / "cuda" / "cis565.jsonl", cuda)
    if scans:
        write_jsonl(tmp / "cuda" / "calibrate.jsonl", cal)
    r = run(tmp, "--paper", "cis565", "--out", tmp / "out")
    assert r.returncode == 0, r.stderr
    report = json.loads((tmp / "out" / "report.json").read_text())["papers"]["cis565"]
    return (tmp / "out" / "report.md").read_text(), {x["finding"]: x for x in report["verdicts"]}, report


def test_tables_findings_and_the_block_study(tmp_path):
    md, v, report = folder(tmp_path)
    scan = md.split("### Scan, power-of-two n")[1].split("###")[0]
    assert "| 4K | 0.00080 | 0.0242 | 0.0160 | 0.0080 |" in scan  # block 128, the write-up's
    npot = md.split("### Scan, non-power-of-two n")[1].split("###")[0]
    assert "| 4K − 3 | 0.00080 | 0.0242 | 0.0192 |" in npot
    comp = md.split("### Stream compaction, power-of-two n")[1].split("###")[0]
    assert "| 4K | 0.0040 | 0.0030 | 0.0403 |" in comp  # the compactions at block 128 only
    block = md.split("### Block size")[1].split("###")[0]
    assert "| naive (Hillis-Steele), n = 16M | 2.0141 | 1.0070 | 1.5106 | 3.0211 | 128 |" in block
    assert "| work-efficient (Blelloch), n = 16M |" in block
    assert "n = 4K" not in block  # one block size there: no study
    test = md.split("### The write-up's test program")[1].split("###")[0]
    assert "| naive scan | 0.15872 | 0.0242 | 0.119808 | 0.0242 |" in test
    assert "| work-efficient scan | 0.344064 | 0.0160 | 0.162912 | 0.0192 |" in test  # 2^8 left, 2^8 − 3 right
    assert "| CPU compact with scan | 0.0035 | 0.0030 | — | 0.0030 |" in test
    assert "| work-efficient compact | 0.305152 | 0.0301 | 0.195584 | 0.0341 |" in test
    assert "the scans alone on Test GPU" in md
    assert v["For tiny inputs the CPU scan wins"]["verdict"] == "holds"
    assert "at n = 256 − 3" in v["For tiny inputs the CPU scan wins"]["evidence"]
    assert v["Thrust's scan is the fastest on large inputs"]["verdict"] == "holds"
    assert v["The naive scan degrades fastest as n grows (O(n log n) work)"]["verdict"] == "holds"
    assert v["The work-efficient scan is slower on non-power-of-two sizes (padding)"]["verdict"] == "holds"
    assert "1.20×" in v["The work-efficient scan is slower on non-power-of-two sizes (padding)"]["evidence"]
    gpu = v["GPU work-efficient compaction overtakes the CPU as n grows"]
    assert gpu["verdict"] == "holds", gpu
    assert "first faster at 16M" in gpu["evidence"]
    assert v["The scan, not the scatter, dominates the GPU compaction"]["verdict"] == "holds"
    figures = {f["file"]: f for f in report["figures"]}
    assert set(figures) == {"cis565-scan.png", "cis565-compaction.png", "cis565-blocks.png"}
    if has_matplotlib():
        assert all(f["drawn"] for f in figures.values()), figures


def test_times_below_a_microsecond_keep_two_digits_without_an_exponent():
    assert [ms(v) for v in (0.5, 0.0012, 0.00019, 0.000052, 0.0)] == [
        "0.5000",
        "0.0012",
        "0.00019",
        "0.000052",
        "0.0000",
    ]


def test_without_the_calibrate_step_the_scans_say_why(tmp_path):
    md, v, report = folder(tmp_path, scans=False)
    tables = {t["name"]: t for t in report["tables"]}
    for name in ("Scan, power-of-two n", "Scan, non-power-of-two n", "Block size"):
        assert not tables[name]["filled"], name
        assert "calibrate" in tables[name]["missing"], name
    assert tables["Stream compaction, power-of-two n"]["filled"]
    assert v["For tiny inputs the CPU scan wins"]["verdict"] == "not measured"
    assert "calibrate" in v["For tiny inputs the CPU scan wins"]["reason"]
    assert v["GPU work-efficient compaction overtakes the CPU as n grows"]["verdict"] == "holds"
