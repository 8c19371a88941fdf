"""The project's own targets (issue 58): the single pass against the copy roofline of the same run, vk
against cuda, Redzone 2 against CUB and its fill against its floor."""

import json

import pytest

from .synthetic import DEVICE, NO_CUDA, has_matplotlib, record, run, write_jsonl

M = 1 << 20
CUDA_BW, VK_BW = 4000.0, 4100.0  # the rooflines, bytes per ns
FLOOR_US = {0.02: 100.0, 0.1: 300.0}  # hole_writes_us_256M_k2 and _k10


def ideal(n, p, bits=32):
    """The roofline's time in ns: n elements read, p·n written, at CUDA_BW."""
    return (n + round(p * n)) * bits // 8 / CUDA_BW


def select(api, algo, n, p, ns, params=None):
    r = record(api, algo, params or {}, f"uniform:{n // M}M:p={p}:seed=1", ns, n=n, phases=["select"])
    r["kept"] = round(p * n)
    return r


def calibration(api, device, values):
    return [
        {"api": api, "device": device, "driver": "test", "name": k, "value": v, "unit": "GB/s", "how": "test"}
        for k, v in values.items()
    ]


def make_run(root, cuda_device=DEVICE["cuda"][0], cub_over=1.35, calibrated_on=None, leave_out=()):
    """A whole `winnow reproduce limit` folder. cuda/lookback at 92 % of the roofline, 85 % at 10 % valid on
    the largest size; CUB cub_over × its time; vk/lookback at 0.96× its speed; 64- and 128-bit at 93 %;
    Redzone 2 with the ordered fill 3.6× CUB at k = 2 % and 2.4× at 10 %, its fill 1.1× the floor."""
    cuda, vk = [], []
    for n in (M, 16 * M, 256 * M):
        for p in (0.1, 0.5, 0.9):
            share = 0.85 if (n, p) == (256 * M, 0.1) else 0.92
            t = ideal(n, p) / share
            lookback = select("cuda", "lookback", n, p, t)
            lookback["chosen"] = {"tile": "128x16m5", "pause": "3000"}  # tile=auto and pause=auto's probe
            cuda += [
                lookback,
                select("cuda", "cub_if", n, p, t * cub_over),
                select("cuda", "thrust_copy_if", n, p, t * 1.6),
            ]
            vk.append(select("vk", "lookback", n, p, t / 0.96))
    # One record timed after its wait for the clock ran out: used, and listed with its clock.
    vk[-1].update(clock_gave_up=True, sm_mhz_min=345.0, sm_mhz_max=495.0, sm_mhz_peak=1980.0)
    wide_cuda, wide_vk = [], []
    for bits in ("64", "128"):
        for p in (0.1, 0.5, 0.9):
            t = ideal(128 * M, p, int(bits)) / 0.93
            wide_cuda.append(select("cuda", "lookback", 128 * M, p, t, {"element": bits}))
            wide_vk.append(select("vk", "lookback", 128 * M, p, t * 1.02, {"element": bits}))
    rz = []
    for k, over in ((0.02, 3.6), (0.1, 2.4)):
        case = f"removal:256M:k={k}:r=uniform:seed=1"
        cub = 2000e3 * (1 + 10 * k)
        fill = FLOOR_US[k] * 1e3 * 1.1
        auto = record("cuda", "redzone2", {"order": "auto"}, case, cub / over, n=256 * M, phases=["order", "fill"])
        if k == 0.02:  # the record says what auto chose; at 10 % its phases do (records before it said)
            auto["chosen"] = {"order": "bitmap"}
        auto["phases"][1]["median_ns"] = fill
        off = record("cuda", "redzone2", {}, case, cub / 2, n=256 * M, phases=["mark", "fill", "orphans"])
        rz += [
            auto,
            off,
            record("cuda", "cub_if", {}, case, cub, n=256 * M, phases=["mark", "select"]),
            record("cuda", "thrust_remove_if", {}, case, cub * 1.2, n=256 * M, phases=["mark", "remove"]),
        ]
    for r in cuda + wide_cuda + rz:
        r["device"] = cuda_device
    cuda = [r for r in cuda if (r["algorithm"], r["case"]) not in leave_out]
    write_jsonl(root / "cuda" / "limit.jsonl", cuda)
    write_jsonl(root / "vk" / "limit.jsonl", vk)
    write_jsonl(root / "cuda" / "limit-wide.jsonl", wide_cuda)
    write_jsonl(root / "vk" / "limit-wide.jsonl", wide_vk)
    write_jsonl(root / "cuda" / "limit-redzone.jsonl", rz)
    floors = {f"hole_writes_us_256M_k{round(k * 100)}": v for k, v in FLOOR_US.items()}
    write_jsonl(
        root / "cuda" / "calibrate.jsonl",
        calibration("cuda", calibrated_on or cuda_device, {"roofline_bytes_per_ns": CUDA_BW, **floors}),
    )
    write_jsonl(root / "vk" / "calibrate.jsonl", calibration("vk", DEVICE["vk"][0], {"roofline_bytes_per_ns": VK_BW}))
    steps = [
        {"kind": "calibrate", "api": api, "suite": None, "status": "done", "seconds": 1.0} for api in ("cuda", "vk")
    ] + [
        {"kind": "bench", "api": api, "suite": s, "name": s, "status": "done", "seconds": 1.0}
        for api, s in (
            ("cuda", "limit"),
            ("vk", "limit"),
            ("cuda", "limit-wide"),
            ("vk", "limit-wide"),
            ("cuda", "limit-redzone"),
        )
    ]
    manifest = {
        "papers": ["limit"],
        "quick": False,
        "winnow": "abc1234",
        "command": "winnow reproduce limit",
        "steps": steps,
    }
    (root / "reproduce.json").write_text(json.dumps(manifest))


def report(root, **kw):
    make_run(root, **kw)
    r = run(root)
    assert r.returncode == 0, r.stderr
    return json.loads((root / "report.json").read_text())["papers"]["limit"], (root / "report.md").read_text()


def verdicts(paper):
    return {v["finding"]: v for v in paper["verdicts"]}


def by_start(paper, start):
    return next(v for f, v in verdicts(paper).items() if f.startswith(start))


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    return report(tmp_path_factory.mktemp("limit"))


def test_every_table_filled_and_every_target_judged(whole):
    paper, _ = whole
    assert [t["name"] for t in paper["tables"] if not t["filled"]] == []
    assert len(paper["verdicts"]) == 5
    assert all(v["verdict"] in ("holds", "changed") and v["evidence"] for v in paper["verdicts"])


def test_the_single_pass_against_the_roofline_at_the_largest_size(whole):
    paper, md = whole
    v = by_start(paper, "cuda/lookback reaches 90 % of the copy roofline at 10, 50 and 90 %")
    assert v["verdict"] == "changed"
    assert "cuda/lookback at 256M: 85 % at 10 % valid, 92 % at 50 % valid, 92 % at 90 % valid" in v["evidence"]
    # 256M at 50 % valid: 1.5 × 2^30 bytes at 4000 B/ns is 402.7 µs; at 92 %, 437.7 µs; CUB 1.35× that; vk 86 % of its own 4100 B/ns.
    row = next(line for line in md.splitlines() if line.startswith("| 256M | 50 % |"))
    assert row.startswith("| 256M | 50 % | 437.7 | 92 % | 590.8 | 700.3 | 1.35× | 1.60× | 455.9 |")
    assert row.endswith("| 455.9 | 86 % | 0.96× |")


def test_speed_over_cub_is_held_to_the_cards_target(tmp_path, whole):
    v = by_start(whole[0], "cuda/lookback is at least 1.30× as fast as CUB")
    assert v["verdict"] == "holds"
    assert "1.35× over 9 (n, density) from 1M to 256M" in v["evidence"]
    # 1.27×: short of 1.30 on this card, enough on an H100, whose roofline caps the ratio near 1.33×.
    test_gpu, _ = report(tmp_path / "a", cub_over=1.27)
    assert by_start(test_gpu, "cuda/lookback is at least")["verdict"] == "changed"
    h100, _ = report(tmp_path / "b", cub_over=1.27, cuda_device="NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)")
    v = by_start(h100, "cuda/lookback is at least")
    assert v["verdict"] == "holds"
    assert "target ≥ 1.25× on this card" in v["evidence"]


def test_what_the_device_chose_for_auto_is_said_under_the_tables(whole):
    _, md = whole
    assert "cuda/lookback chose on this device: 32-bit pause=3000, tile=128x16m5." in md
    # The wide records said nothing chosen (given values, or records from before the probe): no line.
    assert md.count("cuda/lookback chose on this device") == 1


def test_wide_elements_vulkan_and_redzone(whole):
    paper, md = whole
    v = by_start(paper, "cuda/lookback reaches 90 % of the copy roofline with 64- and 128-bit")
    assert v["verdict"] == "holds"
    assert "128-bit at 128M, 90 % valid: 93 %" in v["evidence"]
    v = by_start(paper, "vk/lookback runs at 0.95×")
    assert v["verdict"] == "holds"
    assert "0.96× at 10 % valid" in v["evidence"]
    v = by_start(paper, "Redzone 2 with the ordered fill beats CUB")
    assert v["verdict"] == "changed"
    assert "3.60× at k = 2 % (target ≥ 3.5×), 2.40× at k = 10 % (target ≥ 2.5×)" in v["evidence"]
    # Both Redzones stated, what auto chose, and the fill 1.1× its floor.
    rows = [line for line in md.splitlines() if line.startswith(("| 256M | 2 % | 1200.0", "| 256M | 10 % | 2000.0"))]
    assert [r.split(" | ")[-2:] for r in rows] == [["3.60×", "bitmap |"], ["2.40×", "bitmap |"]]
    assert "| 2.00× | 3.60× | bitmap |" in rows[0]
    row = next(line for line in md.splitlines() if line.startswith("| 256M | 10 % | 300.0 |"))
    assert "| 330.0 | 1.10× |" in row


def test_a_calibration_of_another_card_is_not_used(tmp_path):
    paper, _ = report(tmp_path, calibrated_on="NVIDIA H100 80GB HBM3")
    v = by_start(paper, "cuda/lookback reaches 90 % of the copy roofline at 10")
    assert v["verdict"] == "not measured"
    assert "measured on NVIDIA H100 80GB HBM3" in v["reason"]
    # What does not need the roofline is still judged.
    assert by_start(paper, "cuda/lookback is at least")["verdict"] == "holds"


def test_an_interrupted_run_is_not_judged_on_what_it_has(tmp_path):
    # Without 256M at 10 % valid (the one that misses its target) the roofline target is not measured, not met
    # at 50 and 90 %; and vk against cuda needs cuda/lookback at every density vk ran.
    paper, _ = report(tmp_path / "a", leave_out={("cuda/lookback", "uniform:256M:p=0.1:seed=1")})
    v = by_start(paper, "cuda/lookback reaches 90 % of the copy roofline at 10")
    assert v["verdict"] == "not measured"
    assert "cuda/lookback, 32-bit, 256M: no usable record at 10 % valid" in v["reason"]
    assert by_start(paper, "vk/lookback runs at")["verdict"] == "not measured"
    # Without CUB at 1M, 90 % valid, the speed over CUB is not judged from 4M up.
    paper, _ = report(tmp_path / "b", leave_out={("cuda/cub_if", "uniform:1M:p=0.9:seed=1")})
    v = by_start(paper, "cuda/lookback is at least")
    assert v["verdict"] == "not measured"
    assert "cuda/cub_if, 32-bit, 1M: no usable record at 90 % valid" in v["reason"]
    assert by_start(paper, "cuda/lookback reaches 90 % of the copy roofline at 10")["verdict"] == "changed"


def test_the_figure(whole):
    paper, _ = whole
    f = next(f for f in paper["figures"] if f["file"] == "limit-roofline.png")
    assert f["drawn"] == has_matplotlib()


def test_without_cuda_vulkan_alone_is_tabled(quick):
    paper = quick.report["papers"]["limit"]
    t = {t["name"]: t for t in paper["tables"]}
    assert t["The single pass against the roofline and the libraries (32-bit elements)"]["filled"]
    assert t["The single pass with wide elements"]["filled"]
    assert "no CUDA device" in t["Redzone 2 against the libraries (a removal list)"]["missing"]
    for v in paper["verdicts"]:
        assert v["verdict"] == "not measured", v
        assert "no CUDA device" in v["reason"] or NO_CUDA in v["reason"], v
    part = quick.md.split("### The single pass against the roofline")[1].split("###")[0]
    assert "vk/lookback ran with lookback=all,state=packed,wait=spin." in part


def test_records_timed_below_the_clock_threshold_are_listed_with_their_clock(whole):
    _, md = whole
    section = md.split("### Records timed with the clock low")[1].split("###")[0]
    assert "- vk/lookback (defaults) on uniform:256M:p=0.9:seed=1: 345–495 MHz of 1980" in section
    assert section.count("\n- ") == 1, "only the record whose wait gave up"
