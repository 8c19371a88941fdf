"""Billeter et al. 2009: Fig. 4 and Table 3 from suite billeter, the geometry-shader compactor taken apart
from gl's calibration, Tables 1-2 and 4-5 from cuda's (and Table 1 through Vulkan compute)."""

import json
import pathlib
import tempfile

from winnow_report.papers.billeter import COMPETITORS, fig4_lines

from .synthetic import DEVICE, SIZES, assert_says_why_not, has_matplotlib, record, run, write_jsonl


def test_without_cuda_says_why_not(quick):
    # Table 3's geometry-shader compactor taken apart is GL's, from gl's calibration.
    assert_says_why_not(quick.report, "billeter", ran={"Table 3's geometry-shader compactor taken apart"})


def test_the_geometry_table_reads_gls_calibration_without_cuda(quick):
    t = next(
        t
        for t in quick.report["papers"]["billeter"]["tables"]
        if t["name"] == "Table 3's geometry-shader compactor taken apart"
    )
    assert t["filled"], t
    part = quick.md.split("### Table 3's geometry-shader compactor taken apart")[1].split("###")[0]
    assert "| the vertex stage alone, every point captured (no geometry stage) | 40.000 | 0.105 | 1.00× |" in part
    assert "the geometry stage adds 120.000 ms (75%)" in part


def test_means_over_densities_with_their_range_and_a_small_n_panel(tmp_path):
    """Fig. 4 from a size sweep at 10, 50 and 90 % valid: each point the mean over the densities, with their range."""
    tmp = tmp_path
    recs = []
    for size in ("64K", "256K", "1M", "16M"):
        for p in ("0.1", "0.5", "0.9"):
            case = f"uniform:{size}:p={p}"
            t = SIZES[size] * (1 + float(p))  # 1.1, 1.5, 1.9 ns per element
            for output, slower in (("staged", 1.0), ("buffered", 1.2)):
                recs.append(
                    record("cuda", "billeter", {"compact": "popc", "output": output, "element": "32"}, case, t * slower)
                )
            recs.append(record("cuda", "cub_if", {"place": "out"}, case, t / 2))
    gl = []
    for p in ("0", "0.25", "0.5", "0.75", "1"):  # Table 3's density sweep at 4M (the most densities), and GL's GS
        case = f"uniform:4M:p={p}"
        recs.append(record("cuda", "billeter", {"compact": "popc", "output": "staged", "element": "32"}, case, 1e6))
        gl.append(record("gl", "geometry", {}, case, 1.2e7))
        gl.append(record("gl", "histopyramid", {}, case, 3e6))
    write_jsonl(tmp / "cuda" / "billeter.jsonl", recs)
    write_jsonl(tmp / "gl" / "billeter.jsonl", gl)
    # gl calibrate's probes of the geometry shader's draw: 2 ms without the stage, 12 / 10 ms with it.
    write_jsonl(
        tmp / "gl" / "calibrate.jsonl",
        [
            {"api": "gl", "device": DEVICE["gl"][0], "name": k, "value": v, "unit": "ns", "how": "test"}
            for k, v in {
                "empty_pass_ns": 5000,
                "feedback_vertex_ns_4M": 2e6,
                "feedback_geometry_all_ns_4M": 1.2e7,
                "feedback_geometry_none_ns_4M": 1e7,
            }.items()
        ],
    )
    r = run(tmp, "--paper", "billeter", "--out", tmp / "out")
    assert r.returncode == 0, r.stderr
    md = (tmp / "out" / "report.md").read_text()
    assert "Fig. 4: time against n, the mean over 10, 50 and 90 % valid" in md
    # 16M: mean 1.5 ns × 2^24 = 25.166 ms, range 18.455 … 31.877; the staged variant is the fixed one.
    row = next(line for line in md.splitlines() if line.startswith("| 16M |"))
    assert "25.166 [18.455, 31.877]" in row
    assert "popc/staged" in md
    row = next(line for line in md.splitlines() if line.startswith("| geometry shader + transform feedback (GL) |"))
    assert "12.000 | 12.00× |" in row  # 12 ms against Billeter's 1 ms at 4M
    assert "Geometry Shaders (GTX280) 7.05 ms, 12.6×" in row
    row = next(line for line in md.splitlines() if line.startswith("| HistoPyramid (GL) |"))
    assert "3.000 | 3.00× |" in row
    assert "Ziegler et al. [2006] (GTX280) 2.54 ms, 4.53×" in row
    parts = md.split("### Table 3's geometry-shader compactor taken apart")[1].split("###")[0]
    assert f"on {DEVICE['gl'][0]}" in parts
    assert "| gl/geometry, mean over 5 densities (Table 3's row) | 12.000 | 0.350 | 6.00× |" in parts
    assert "| gl/geometry's draw, no word valid: nothing emitted | 10.000 | 0.419 | 5.00× |" in parts
    assert "| the vertex stage alone, every point captured (no geometry stage) | 2.000 | 2.097 | 1.00× |" in parts
    assert (
        "Of the 12.000 ms with every point emitted, the geometry stage adds 10.000 ms (83%) to the same "
        "draw without it, and emitting adds 2.000 ms (17%) to emitting nothing; the rest, 2.000 ms (17%), is "
        "the points through the vertex stage and transform feedback alone."
    ) in parts
    # No cuda/calibrate.jsonl: Tables 1-2 say so.
    assert "Tables 1-2: the pass-through copy by access width" in md
    assert "no cuda/calibrate.jsonl" in md.split("### Tables 1-2")[1].split("###")[0]
    figs = {
        f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["billeter"]["figures"]
    }
    if has_matplotlib():
        assert figs["billeter-fig4.png"]["drawn"], figs["billeter-fig4.png"]


def tables12(tmp_path, band, device=None, extra=None, vk=None):
    """Tables 1-2 from the cuda calibrate step: by access width, and Table 2's band around 24M; Tables 4-5
    (the prefix sums and the radix sorts) from the same step. A folder of its own in tmp_path each call."""
    tmp = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    if vk:
        write_jsonl(
            tmp / "vk" / "calibrate.jsonl",
            [
                {"api": "vk", "device": "Some Vulkan GPU", "name": k, "value": v, "unit": "GB/s", "how": "test"}
                for k, v in vk.items()
            ],
        )
    recs = [
        record("cuda", "billeter", {"compact": "popc", "output": "staged", "element": "32"}, "uniform:4M:p=0.5", 1e6)
    ]
    write_jsonl(tmp / "cuda" / "billeter.jsonl", recs)
    values = {
        "empty_pass_ns": 3000,
        "memcpy_bytes_per_ns_256M": 3000,
        "copy_bytes_per_ns_256M_b4": 2400,
        "copy_bytes_per_ns_256M_b8": 2800,
        "copy_bytes_per_ns_256M_b16": 2700,
        "roofline_bytes_per_ns": 3000,
        "copy_bytes_per_ns_24M-100k_b4": band[0],
        "copy_bytes_per_ns_24M_b4": band[1],
        "copy_bytes_per_ns_24M+100k_b4": band[2],
        **(extra or {}),
    }
    write_jsonl(
        tmp / "cuda" / "calibrate.jsonl",
        [
            {"api": "cuda", "device": device or DEVICE["cuda"][0], "name": k, "value": v, "unit": "GB/s", "how": "test"}
            for k, v in values.items()
        ],
    )
    r = run(tmp, "--paper", "billeter", "--out", tmp / "out")
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp / "out" / "report.json").read_text())["papers"]["billeter"]
    return (tmp / "out" / "report.md").read_text(), {v["finding"]: v for v in rep["verdicts"]}


def test_widths_and_the_band_beside_the_published_numbers(tmp_path):
    md, verdicts = tables12(tmp_path, (2400, 600, 2400))
    section = md.split("### Tables 1-2")[1].split("###")[0]
    assert "| 256M | 2400 | 2800 | 2700 | 3000 |" in section
    assert "| published: GTX 280 (Table 1) | 77.8 | 102.5 | 73.4 | — |" in section
    assert "| 24M | 600 | 24.0 |" in section
    widest = verdicts["64-bit accesses give the pass-through its highest bandwidth"]
    assert widest["verdict"] == "holds", widest
    band = verdicts["The pass-through bandwidth falls to a quarter in a narrow band around 24M elements"]
    assert band["verdict"] == "holds", band
    assert "0.25×" in band["evidence"]
    _, verdicts = tables12(tmp_path, (2400, 2300, 2400))
    band = verdicts["The pass-through bandwidth falls to a quarter in a narrow band around 24M elements"]
    assert band["verdict"] == "changed", band


def test_vulkan_widths_take_the_best_workgroup_size_of_each(tmp_path):
    vk = {
        "empty_pass_ns": 5000,
        "copy_bytes_per_ns_256M_b4_l64": 1700,
        "copy_bytes_per_ns_4M_b4_l64": 900,
        "copy_bytes_per_ns_4M_b4_l256": 1000,
        "copy_bytes_per_ns_256M_b4_l256": 1600,
        "copy_bytes_per_ns_256M_b8_l64": 2000,
        "copy_bytes_per_ns_256M_b8_l1024": 2600,
        "copy_bytes_per_ns_256M_b16_l256": 3100,
        "copy_bytes_per_ns_256M_b16_l1024": 3050,
        "copy_bytes_per_ns_4M_items4": 2000,
        "roofline_bytes_per_ns": 3100,
    }
    md, _ = tables12(tmp_path, (2400, 600, 2400), vk=vk)
    section = md.split("### Tables 1-2")[1].split("###")[0]
    assert "| n, Vulkan compute (vk/calibrate.jsonl, on Some Vulkan GPU) |" in section
    # Sizes in order, a width not measured at a size shown as such, items4 and the roofline not rows.
    assert "| 4M | 1000 | — | — | 256 / — / — |\n| 256M | 1700 | 2600 | 3100 | 64 / 1024 / 256 |" in section
    md, _ = tables12(tmp_path, (2400, 600, 2400))
    assert "not measured: no vk/calibrate.jsonl" in md.split("### Tables 1-2")[1].split("###")[0]


def test_tables_from_the_calibration_alone_name_its_device(tmp_path):
    # Tables 1-2 (and 4-5) combine nothing with the records: a calibration of another device than
    # the records' is used, and the table says whose it is.
    md, verdicts = tables12(tmp_path, (2400, 600, 2400), device="Some Other GPU")
    assert "on Some Other GPU" in md.split("### Tables 1-2")[1].split("###")[0]
    assert verdicts["64-bit accesses give the pass-through its highest bandwidth"]["verdict"] == "holds"


def test_prefix_sums_and_radix_sorts_beside_the_published_numbers(tmp_path):
    extra = {
        "prefix_sum_billeter_32M_out": 100.0,
        "prefix_sum_cub_32M_out": 150.0,
        "prefix_sum_billeter_32M_in": 90.0,
        "prefix_sum_cub_32M_in": 140.0,
        "prefix_sum_billeter_220M_in": 700.0,
        "prefix_sum_cub_220M_in": 600.0,
        "radix_sort_billeter_keys_4M": 1500.0,
        "radix_sort_cub_keys_4M": 170.0,
        "radix_sort_billeter_pairs_separate_4M": 1800.0,
        "radix_sort_cub_pairs_separate_4M": 220.0,
    }
    md, verdicts = tables12(tmp_path, (2400, 600, 2400), extra=extra)
    t4 = md.split("### Table 4 (§5.2): the prefix sum")[1].split("###")[0]
    assert "| 32M | out of place | 0.100 | 0.150 | 0.67× | 2684 | 3.7 / 5.3 |" in t4
    assert "| 220M | in place | 0.700 | 0.600 | 1.17× |" in t4
    t5 = md.split("### Table 5 (§5.3)")[1].split("###")[0]
    assert "| 32-bit keys | 1.500 | 0.170 | 8.82× | 27.6 / 28.2 / 50.1 |" in t5
    assert "| 32-bit keys, 96-bit values, interleaved | — | — | — | — / 61.7 / — |" in t5
    assert verdicts["Billeter's prefix sum is faster than the library's"]["verdict"] == "holds"
    assert verdicts["The split radix sort is as fast as the fastest library sort"]["verdict"] == "changed"
    md, verdicts = tables12(tmp_path, (2400, 600, 2400))
    assert verdicts["Billeter's prefix sum is faster than the library's"]["verdict"] == "not measured"


def test_fig4_draws_the_shader_era_competitors_beside_every_library():
    cols = [(f"Billeter {e}", f"billeter:{e}", {}) for e in ("32", "64", "128")] + [
        (label, a, {}) for a, label in COMPETITORS
    ]
    keys = [c[1] for c in fig4_lines(cols)]
    assert "geometry" in keys
    assert "histopyramid" in keys
    assert "scan_naive" not in keys
    assert "ink_atomic" in keys
    assert len(keys) == (len(cols) - 1)  # only the naive scan left out: no line cut by the cap
