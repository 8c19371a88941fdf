"""Moreira et al. 2009: Table 1 (also within 256-iteration loops), Horn's search by steps, Fig. 7,
Figs. 8-10 and the adaptive algorithm; what the shader-era reports count as the default series."""

import json
import math
import os
import re
import shutil

from winnow_report.papers.common import Rec, Run, is_shader_default
from winnow_report.papers.moreira import concat_choice

from .synthetic import JJ_FINDING, NO_IMAGES, assert_filled_and_judged, record, run, write_jsonl


def test_fig7_is_drawn_at_the_papers_block_when_it_ran(quick):
    # Fig. 7 at B = 256 as published, not the block nearest to it (128 or 512 would be taken without it).
    for api in ("gl", "vkfrag", "vk"):
        section = quick.md.split(f"### Fig. 7 ({api}): time per phase")[1].split("\n### ")[0]
        assert "here 64K, B = 256." in section, api
        assert "| BT | 50 % |" in section, api


def test_the_report_says_what_the_concatenation_probe_chose(quick):
    # gl and vkfrag ran concat=auto (their records say lines); vk has no probe, so no line for it.
    for api, name in (("gl", "GL fragment"), ("vkfrag", "Vulkan fragment")):
        said = re.search(
            rf"\n- {name} \(`{api}`\): the blocks concatenated as the start-up probe chose "
            r"\(`concat=auto`\): lines in (\d+) of (\d+) records\.",
            quick.md,
        )
        assert said is not None, api
        assert said[1] == said[2], api
    assert "(`vk`): the blocks concatenated" not in quick.md


def test_measured_and_judged(quick):
    assert_filled_and_judged(quick.report, "moreira")


def test_a_step_is_found_by_its_results_name_and_says_why_it_did_not_run(quick):
    # adaptive and adaptive-images run the same suite: the manifest's name tells them apart.
    assert ("| bench | gl | adaptive (as adaptive-images) | not run | 1.0 | " + NO_IMAGES + " |") in quick.md
    section = quick.md.split("### Adaptive algorithm (gl)")[1].split("###")[0]
    assert ("The held-back real images (`gl/adaptive-images.jsonl`): gl not run here: " + NO_IMAGES) in section
    assert "| finger:64K |" in section  # the suite's own records still fill the table
    folder = Run(quick.dir)
    assert folder.step("bench", "gl", "adaptive")["status"] == "done"
    assert folder.step("bench", "gl", "adaptive-images")["status"] == "not run"


def test_the_adaptive_algorithm_is_judged_against_the_best_fixed_choice(quick):
    section = quick.md.split("### Adaptive algorithm (gl)")[1].split("###")[0]
    assert "| hand:4M | 41.943 bt 128 |" in section
    # pass, records on the device (the candidates one after another, then interleaved), records read back
    # (host × interleaved ran as host: one column, the record that ran as asked)
    assert "| 1.30 | 1.02 | 1.04 | 1.05 |" in section
    assert "records, device: / oracle" in section  # where the choice was made: a column each
    assert "records, device, interleaved: / oracle" in section  # and the schedule on the device
    assert "bt 2048" in section  # the file case's choice
    # What auto weighed, per model and size, from the records' notes; none where a record has no notes.
    assert "| choice=auto weighed (the records' notes) | n |" in section
    assert "| pass, auto → ? | 64K | 0.1 | 0.7 | 30.0-32.0 | runs it, no sample |" in section
    assert "| records, auto → host | 4M | 4194.3 | 41.9 | 30.0 | samples and chooses |" in section
    assert "| records, auto → device | 4M | 40.7 | 11.8 | 32.5 | runs it, no sample |" in section
    verdict = quick.md.split("The adaptive algorithm is within 10 % of the best fixed choice")[1].split("\n- ")[0]
    assert "gl: **holds** — model records, device: adaptive / oracle on the image cases at 4M (1) 1.02-1.02" in verdict


def test_missing_calibration_is_said(quick, tmp_path):
    d = tmp_path / "nocal"
    shutil.copytree(quick.dir, d)
    os.remove(d / "gl" / "calibrate.jsonl")
    r = run(d, "--paper", "moreira")
    assert r.returncode == 0, r.stderr
    assert "gl: no model — no gl/calibrate.jsonl" in (d / "report.md").read_text()


def test_table1_within_256_trip_loops_and_horn_by_steps(quick):
    loops = quick.md.split("### Table 1 within 256-iteration loops (gl)")[1].split("###")[0]
    # finger 16K, finger 256K, i_finger 16K, i_finger 256K; published (256K) beside Horn's loop and RLZ's
    # fast search only; JJ's fastest usable limited record (not its slower, skipped or unlimited copies).
    assert "| 32 | Horn | 0.426 | 6.816 / 13.24 | 0.426 | — / 14.15 |" in loops
    assert "| 32 | Horn, by steps | 0.596 | 9.542 | 0.639 | — |" in loops
    assert "| 32 | JJ | 0.393 | 6.291 / 13.21 | 0.393 | — / 12.05 |" in loops
    assert "| 32 | RLZ, fast search | 0.590 | 9.437 / 12.66 | 0.590 | — / 13.52 |" in loops
    assert "| 32 | RLZ, plain search | 0.655 | 10.486 | 0.655 | — |" in loops
    assert "| 512 | JJ | over 256 (511) | — | over 256 (511) | — |" in loops
    assert "| 512 | RLZ, plain search | over 256 (257) | — | over 256 (257) | — |" in loops
    assert "| 512 | RLZ, fast search | 0.590 | — / 10.85 | 0.590 | — / 11.91 |" in loops
    steps = quick.md.split("### Horn's search by steps (gl)")[1].split("###")[0]
    geo = math.exp(sum(math.log(1.4 + 0.1 * i) for i in range(6)) / 6)  # the geometric mean, not another
    assert f"| 32 | 16K | 30 | 35 | {geo:.2f}× [1.40, 1.90] |" in steps
    assert f"| 512 | 16K | 30 | 39 | {geo:.2f}× [1.40, 1.90] |" in steps
    assert "| 32 | 256K | 30 | 35 | 1.40× [1.40, 1.40] |" in steps
    verdicts = {v["finding"]: v for v in quick.report["papers"]["moreira"]["verdicts"]}
    jj = verdicts[f"{JJ_FINDING} [gl]"]
    assert jj["verdict"] == "holds", jj
    assert "6 of 6 refused (may loop 511 times), 0 ran; below: 8 ran, 0 refused; 1 skipped otherwise" in jj["evidence"]


def jj_verdict(quick, tmp_path, name, api, skip):
    """The JJ loop-limit finding on `api` after skip(record) -> reason marks that api's JJ records skipped."""
    d = tmp_path / name
    shutil.copytree(quick.dir, d)
    recs = [json.loads(line) for line in (d / api / "moreira-era.jsonl").read_text().splitlines()]
    for r in recs:
        why = skip(r) if r["algorithm"] == f"{api}/jj" else None
        if why:
            r["skipped"], r["phases"] = f"{r['case']}: {why}", []
    write_jsonl(d / api / "moreira-era.jsonl", recs)
    assert run(d, "--paper", "moreira").returncode == 0
    verdicts = {v["finding"]: v for v in json.loads((d / "report.json").read_text())["papers"]["moreira"]["verdicts"]}
    return verdicts[f"{JJ_FINDING} [{api}]"]


def test_a_plan_refused_below_512_changes_the_loop_limit_finding(quick, tmp_path):
    v = jj_verdict(
        quick,
        tmp_path,
        "refused128",
        "vk",
        lambda r: r["params"]["block"] == "32" and "jj at block 32 may loop 300 times, over loop_limit=256",
    )
    assert v["verdict"] == "changed", v


def test_jj_skipped_for_other_reasons_leaves_the_loop_limit_finding_unmeasured(quick, tmp_path):
    v = jj_verdict(quick, tmp_path, "jjoom", "gl", lambda r: "out of memory")
    assert v["verdict"] == "not measured", v


def test_without_the_era_suite_its_tables_and_finding_say_why(quick, tmp_path):
    d = tmp_path / "noera"
    shutil.copytree(quick.dir, d)
    os.remove(d / "vk" / "moreira-era.jsonl")
    assert run(d, "--paper", "moreira").returncode == 0
    paper = json.loads((d / "report.json").read_text())["papers"]["moreira"]
    for name in ("Table 1 within 256-iteration loops (vk)", "Horn's search by steps (vk)"):
        t = next(t for t in paper["tables"] if t["name"] == name)
        assert not t["filled"]
        assert "vk/moreira-era.jsonl" in t["missing"]
    v = next(v for v in paper["verdicts"] if v["finding"] == f"{JJ_FINDING} [vk]")
    assert v["verdict"] == "not measured"
    assert "vk/moreira-era.jsonl" in v["reason"]


def test_concat_auto_is_the_default_whatever_it_chose():
    base = {"block": "128", "scan": "hillis", "loop_limit": "none", "search": "loop"}
    rects = record("gl", "horn", dict(base, concat="auto"), "finger:64K", 1e6)
    rects["chosen"] = {"concat": "rects"}
    r = Rec(rects, "t")
    assert r.p("concat") == "rects"  # reads as what ran
    assert is_shader_default(r, "gl")  # but auto is the default series
    assert not is_shader_default(Rec(record("gl", "horn", dict(base, concat="rects"), "finger:64K", 1e6), "t"), "gl")
    assert not is_shader_default(
        Rec(record("gl", "horn", dict(base, concat="auto", search="steps"), "finger:64K", 1e6), "t"), "gl"
    )
    assert not is_shader_default(
        Rec(record("gl", "jj", dict(base, concat="auto", loop_limit="256"), "finger:64K", 1e6), "t"), "gl"
    )
    assert is_shader_default(
        Rec(record("gl", "rlz", {"block": "128", "concat": "stacks", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"
    )
    assert is_shader_default(
        Rec(record("gl", "rlz", {"block": "128", "concat": "pairs", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"
    )
    # lines given by hand: a variant since stacks became the default
    assert not is_shader_default(
        Rec(record("gl", "rlz", {"block": "128", "concat": "lines", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"
    )


def test_the_probes_choices_are_counted_per_method():
    base = {"block": "128", "scan": "hillis", "concat": "auto"}
    recs = []
    for chosen in ("rects", "lines", "rects", None):
        d = record("gl", "horn", dict(base), "finger:64K", 1e6)
        if chosen:
            d["chosen"] = {"concat": chosen}
        recs.append(Rec(d, "t"))
    recs.append(Rec(record("gl", "horn", dict(base, concat="lines"), "finger:64K", 1e6), "t"))  # given: no probe
    assert concat_choice("gl", recs) == (
        "GL fragment (`gl`): the blocks concatenated as the start-up probe chose (`concat=auto`): "
        "rects in 2 of 4 records, lines in 1 of 4 records, not recorded (a build before the "
        "records named it) in 1 of 4 records."
    )
    assert (
        concat_choice("vk", [Rec(record("vk", "horn", {"block": "128", "concat": "copy"}, "finger:64K", 1e6), "t")])
        is None
    )
