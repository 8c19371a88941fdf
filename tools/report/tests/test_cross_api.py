"""The cross-API paper (GL, Vulkan fragment, Vulkan compute against their pass models)."""

import json
import shutil

from .synthetic import assert_filled_and_judged, calibrate_lines, run, write_jsonl


def test_measured_and_judged(quick):
    assert_filled_and_judged(quick.report, "cross-api")


def test_calibration_of_another_device_is_refused(quick, tmp_path):
    d = tmp_path / "otherdev"
    shutil.copytree(quick.dir, d)
    write_jsonl(d / "vk" / "calibrate.jsonl", calibrate_lines("vk", device="NVIDIA H200"))
    r = run(d, "--paper", "cross-api")
    assert r.returncode == 0, r.stderr
    paper = json.loads((d / "report.json").read_text())["papers"]["cross-api"]
    vk = next(v for v in paper["verdicts"] if v["finding"].endswith("[vk]"))
    assert vk["verdict"] == "not measured"
    assert "NVIDIA H200" in vk["reason"]
