#!/usr/bin/env python3
"""Tests of tools/report/reproduce.py on a synthetic `winnow reproduce --quick` folder: the layout a
CPU-only machine gives (gl and vk on Mesa, cuda not run), built here record by record.

Run: /usr/bin/python3 tools/report/test_reproduce.py   (Debian's python, which has matplotlib; the
test that hides matplotlib runs in a subprocess either way)
"""
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE / "reproduce.py"
NO_CUDA = "cuda: no CUDA device (cudaGetDeviceCount: no CUDA-capable device is detected)"
DEVICE = {"gl": ("llvmpipe (LLVM 15.0.6, 256 bits)", "OpenGL 4.5 (Mesa 22.3.6)"),
          "vkfrag": ("llvmpipe (LLVM 15.0.6, 256 bits)", "Vulkan 1.3.230, Mesa 22.3.6"),
          "vk": ("llvmpipe (LLVM 15.0.6, 256 bits)", "Vulkan 1.3.230, Mesa 22.3.6"),
          "cpu": ("Test CPU (2 threads)", "oneTBB 2021.8"),
          "cuda": ("NVIDIA Test GPU", "CUDA 13.0, driver 580")}
PHASES = {"horn": ["scan", "search", "count", "concat"], "jj": ["scan", "search", "count", "concat"],
          "rlz": ["runs", "scan", "search", "count", "concat"], "bt": ["reduce", "traverse", "count", "concat"],
          "redzone": ["mark", "fill", "orphans"], "stencil": ["mark", "count", "move"], "remove_if": ["mark", "remove"],
          "par_remove_if": ["mark", "remove"], "sequential": ["mark", "compact"], "billeter": ["count", "scan", "move"],
          "cub_if": ["select"], "geometry": ["compact"], "histopyramid": ["reduce", "traverse"],
          "adaptive": ["sample", "reduce", "traverse", "count", "concat"]}
SIZES = {"16K": 16384, "64K": 65536, "128K": 131072, "256K": 1 << 18, "1M": 1 << 20, "4M": 1 << 22, "16M": 1 << 24}
IMAGES = ["finger", "i_finger", "hand", "i_hand", "bunny", "i_bunny"]
JJ_FINDING = "Jumping Jack cannot run at B = 512 within 256-iteration loops (Table 1 has no JJ there)"


def record(api, algo, params, case, total_ns, verified=True, skipped=None, noise=0.01, n=None, phases=None):
    """A schema-1 record; the phases split the total in equal parts (what the tests read is the total)."""
    parts = case.split(":")
    n = n or SIZES[parts[1]]
    phases = phases or PHASES[algo]
    device, driver = DEVICE[api]
    stat = lambda ns: {"median_ns": ns, "min_ns": ns * 0.98, "max_ns": ns * 1.02}  # noqa: E731
    return {"schema": 1, "winnow": "abc1234", "command": f"winnow bench --api {api}", "host": "test", "device": device,
            "driver": driver, "api": api, "algorithm": f"{api}/{algo}", "params": params, "case": case, "n": n,
            "removals": n // 2, "valid": n // 2, "kept": n // 2, "stable": True, "in_place": False, "warmup": 1,
            "warmup_ms": 0.0, "reps": 3, "cold": False, "debug": False,
            "phases": [] if skipped else [dict(name=p, **stat(total_ns / len(phases))) for p in phases],
            "total": dict(stat(total_ns), noise=noise), "wall": stat(total_ns * 1.1), "bytes_read": 8 * n, "bytes_written": 4 * n,
            "launches": 30, "verified": verified, "mismatch": None if verified else "element 3: got 7, want 9",
            "skipped": skipped}


def adaptive_records(api):
    """The adaptive suite: BT at two blocks (the oracle: 128 on images, 2048 on the file case) and the
    adaptive algorithm with both models, the records model 1.05 × the oracle, the pass model 1.3 ×."""
    out = []
    for case in ["finger:64K", "hand:4M", "file:photo.png:threshold=128"]:
        n = 1 << 22 if ":4M" in case else 65536
        best = "2048" if case.startswith("file:") else "128"
        for block in ("128", "2048"):
            out.append(record(api, "bt", {"block": block, "scan": "hillis"}, case, n * (10 if block == best else 12), n=n))
        for model, choice, schedule, factor in (("pass", None, None, 1.3), ("repro/gl/moreira.jsonl", "host", None, 1.05),
                                                ("repro/gl/moreira.jsonl", "device", "sequential", 1.02),
                                                ("repro/gl/moreira.jsonl", "device", "interleaved", 1.04),
                                                ("repro/gl/moreira.jsonl", "host", "interleaved", 1.5)):
            given = {"model": model, **({"choice": "auto"} if choice else {}), **({"schedule": schedule} if schedule else {})}
            r = record(api, "adaptive", given, case, n * 10 * factor, n=n)
            ran = "sequential" if choice == "host" else schedule  # the choice read back runs one candidate
            r["chosen"] = {"algorithm": "bt", "block": best, **({"choice": choice} if choice else {}),
                           **({"schedule": ran} if ran else {})}
            # What auto weighed (choice=auto's notes), scaling with n: the pass model's candidate can lose
            # little and runs alone; the records' host choice pays for its sample.
            if model == "pass":
                r["notes"] = {"expected_regret_ns": str(n / 1000), "choosing_ns": str(n / 100), "round_trip_ns": "30000"}
                if case.startswith("file:"):  # another process, whose round trip read higher
                    r["notes"]["round_trip_ns"] = "32000"
            elif choice == "device" and schedule == "sequential":
                # Only the table's arithmetic (these records did sample): close to the line, the round trip
                # decides (regret 40.7 < 11.8 + 32.5, not < 11.8).
                r["notes"] = {"expected_regret_ns": "40700", "choosing_ns": "11800", "round_trip_ns": "32500"}
            elif choice == "host" and schedule is None:
                r["notes"] = {"expected_regret_ns": str(n), "choosing_ns": str(n / 100), "round_trip_ns": "30000"}
            out.append(r)
    return out


def shader_records(api, suite):
    """Moreira's (or the paths suite's) grid, with times shaped like the papers' (BT fastest, RLZ flat)."""
    cost = {"horn": 1.3, "jj": 1.2, "rlz": 1.8, "bt": 0.7}
    # moreira's 256: the paper's Figs. 7 and 9 ran at B = 256, and the CI's quick grid has no 256 to pick.
    blocks = ["32", "128", "256"] if suite == "moreira" else ["128", "512"]
    cases = [f"{img}:{s}" for img in IMAGES for s in ("16K", "64K")]
    if suite == "moreira":
        cases += [f"uniform:64K:p={p}:seed=1" for p in ("0", "0.1", "0.3", "0.5", "0.9", "1")]
    out = []
    for algo, c in cost.items():
        for block in blocks:
            scans = ["hillis", "blelloch"] if suite == "moreira" and algo != "rlz" else ["hillis"]
            for scan in scans:
                # The fragment paths' default concat=auto: the records say what the probe chose.
                params = {"block": block, "concat": "copy" if api == "vk" else "auto", "scan": scan, "loop_limit": "none"}
                if algo == "rlz":
                    params.update(runs="doubling", search="fast")
                if algo == "horn":
                    params.update(search="loop")  # Horn's own search axis (loop/steps), not RLZ's (plain/fast)
                for case in cases:
                    n = SIZES[case.split(":")[1]]
                    p = float(case.split("p=")[1].split(":")[0]) if "p=" in case else 0.5
                    slope = {"horn": 0.3, "jj": -0.4, "rlz": 0.02, "bt": 0.8}[algo]
                    t = c * n * 20 * (1 + slope * p) * (1.1 if scan == "blelloch" else 1.0) * (1 + int(block) / 4096)
                    r = record(api, algo, params, case, t)
                    if api != "vk":
                        r["chosen"] = {"concat": "lines"}
                    out.append(r)
    return out


def era_records(api):
    """Suite moreira-era: every plan under loop_limit=256 (JJ and RLZ's plain search refused at B = 512, with
    the reason the frame gives), Horn's search both ways (by steps: log2 B more passes, 1.4-1.9 × the time,
    by image). finger also at 256K and B = 32, where the paper has published cells; and three records the
    tables must pass over: a slower and a skipped copy of one plan, and that JJ plan at B = 512 unlimited."""
    rows = [("horn", {"search": "loop"}, 1.3), ("horn", {"search": "steps"}, 1.3), ("jj", {}, 1.2),
            ("rlz", {"runs": "doubling", "search": "plain"}, 2.0), ("rlz", {"runs": "doubling", "search": "fast"}, 1.8),
            ("bt", {}, 0.7)]
    out = []
    for algo, extra, c in rows:
        for block in ("32", "512"):
            params = {"block": block, "scan": "hillis", "loop_limit": "256", **extra}
            trips = {"jj": 511, "rlz": 257}.get(algo) if block == "512" and extra.get("search") != "fast" else None
            cases = [f"{img}:16K" for img in IMAGES] + (["finger:256K"] if block == "32" else [])
            for case in cases:
                if trips:
                    why = (f"{case}: winnow::shader_era: {algo} at block {block} may loop {trips} times, over "
                           "loop_limit=256 (the GeForce 7300 Go's fragment loops)")
                    out.append(record(api, algo, params, case, 0, skipped=why))
                    continue
                steps = extra.get("search") == "steps"
                r = record(api, algo, params, case, c * SIZES[case.split(":")[1]] * 20 * (era_steps(case) if steps else 1))
                if steps:
                    r["launches"] += {"32": 5, "512": 9}[block]
                out.append(r)
    jj = {"block": "32", "scan": "hillis", "loop_limit": "256"}
    out.append(record(api, "jj", jj, "finger:16K", 2.4 * 16384 * 20))
    out.append(record(api, "jj", jj, "finger:16K", 0, skipped="finger:16K: out of memory"))
    out.append(record(api, "jj", {**jj, "block": "512", "loop_limit": "none"}, "finger:16K", 16384))
    return out


def era_steps(case):
    """Horn by steps over Horn by loop on one image case: 1.4 (finger) … 1.9 (i_bunny)."""
    return 1.4 + 0.1 * IMAGES.index(case.split(":")[0])


def preserve_records():
    """Suite preserve on cpu (cuda does not run here): the preserve list costs p, Redzone k, the others n."""
    out = []
    for k in ("0.02", "0.5", "0.98"):
        case = f"removal:1M:k={k}:r=uniform:seed=1"
        n, kk = SIZES["1M"], float(k)
        out.append(record("cpu", "preserve", {"threads": "2"}, case, 30 * (1 - kk) * n + 1e4, phases=["gather"]))
        out.append(record("cpu", "redzone", {"threads": "2"}, case, 40 * kk * n + 1e4))
        out.append(record("cpu", "stencil", {"threads": "2"}, case, 6 * n))
        out.append(record("cpu", "par_remove_if", {"threads": "2"}, case, 8 * n))
    return out


def cpu_records():
    out = []
    for size in ("128K", "1M"):
        for k in ("0.02", "0.1", "0.5", "0.9"):
            case = f"removal:{size}:k={k}:r=uniform:seed=1"
            n, kk = SIZES[size], float(k)
            out.append(record("cpu", "redzone", {"threads": "2"}, case, 40 * kk * n + 1e4))
            out.append(record("cpu", "stencil", {"threads": "2"}, case, (2 + 4 * kk) * n * (1.1 - 0.3 * kk)))
            out.append(record("cpu", "remove_if", {}, case, (3 + 8 * kk) * n))
            out.append(record("cpu", "par_remove_if", {"threads": "2"}, case, (4 + 5 * kk) * n))
            # One noisy record: flagged in the report, still used.
            noise = 0.2 if (size, k) == ("128K", "0.5") else 0.01
            out.append(record("cpu", "sequential", {}, case, (3 + 8 * kk) * n * 1.01, noise=noise))
    # §4.6: gains appended; Redzone's time grows with j + k, the others' with n + j.
    for k in ("0.02", "0.1"):
        for g in ("0.01", "0.1"):
            case = f"removal:1M:k={k}:r=uniform:seed=1:g={g}"
            n, kk, gg = SIZES["1M"], float(k), float(g)
            nj = n + round(gg * n)  # records carry the stream's n + j
            out.append(record("cpu", "redzone", {"threads": "2"}, case, 40 * (kk + gg) * n + 1e4, n=nj,
                              phases=["append", "mark", "fill", "orphans"]))
            out.append(record("cpu", "stencil", {"threads": "2"}, case, (2 + 4 * kk) * n * (1 + gg), n=nj))
    # Failed verification (absurdly fast, so a table that used it would show it) and too large to run.
    out.append(record("cpu", "redzone", {"threads": "1"}, "removal:1M:k=0.02:r=uniform:seed=1", 1.0, verified=False))
    out.append(record("cpu", "redzone", {"threads": "2"}, "removal:1M:k=0.5:r=0.5:seed=1", 0, skipped="too large"))
    return out


def calibrate_lines(api, device=None):
    dev, drv = DEVICE[api]
    line = lambda name, value: {"api": api, "device": device or dev, "driver": drv, "name": name, "value": value,  # noqa: E731
                                "unit": "GB/s" if "bytes" in name else "ns", "how": "synthetic"}
    return [line("empty_pass_ns", 40000.0), line("copy_pass_ns_64K", 80000.0), line("copy_bytes_per_ns_64K", 6.0),
            line("copy_bytes_per_ns_256K", 7.0)]


NO_IMAGES = "the held-back images could not be made (python3 held_back_images.py needs numpy and python3-matplotlib): exit 1"
FEEDBACK_LINES = [{"api": "gl", "device": "llvmpipe", "driver": "Mesa", "name": k, "value": v, "unit": "ns", "how": "synthetic"}
                  for k, v in {"feedback_vertex_ns_4M": 4e7, "feedback_geometry_all_ns_4M": 1.6e8,
                               "feedback_geometry_none_ns_4M": 6e7}.items()]


def write_jsonl(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def make_dir(root):
    """The folder `winnow reproduce all --quick --out ROOT` leaves on a machine without CUDA."""
    steps = []

    def step(kind, api, suite, status="done", reason=None, name=None):
        steps.append({"kind": kind, "api": api, "suite": suite, "name": name or suite, "files": [],
                      "command": f"winnow {kind} --api {api}", "status": status, "exit": 0 if status == "done" else None,
                      "reason": reason, "seconds": 1.0})

    for api in ("gl", "vkfrag", "vk"):
        write_jsonl(root / api / "adaptive.jsonl", adaptive_records(api))
        step("bench", api, "adaptive")
        # The held-back images' step: run as adaptive-images (its records: none here, it could not run).
        step("bench", api, "adaptive", status="not run", reason=NO_IMAGES, name="adaptive-images")
        # gl's calibration with the geometry shader's draw taken apart (desktop GL on Mesa has it).
        write_jsonl(root / api / "calibrate.jsonl", calibrate_lines(api) + (FEEDBACK_LINES if api == "gl" else []))
        step("calibrate", api, None)
        for suite in ("moreira", "paths"):
            write_jsonl(root / api / f"{suite}.jsonl", shader_records(api, suite))
            step("bench", api, suite)
        write_jsonl(root / api / "moreira-era.jsonl", era_records(api))
        step("bench", api, "moreira-era")
    write_jsonl(root / "cpu" / "cpu.jsonl", cpu_records())
    (root / "cpu" / "cpu.status.json").write_text(json.dumps(
        {"complete": False, "records": 42, "planned": 48, "not_run": {}, "command": "winnow bench --suite cpu"}))
    step("bench", "cpu", "cpu", status="interrupted")
    write_jsonl(root / "cpu" / "preserve.jsonl", preserve_records())
    step("bench", "cpu", "preserve")
    step("bench", "cuda", "preserve", status="not run", reason=NO_CUDA)
    step("calibrate", "cuda", None, status="not run", reason=NO_CUDA)  # billeter's Tables 1-2
    for suite in ("redzone", "redzone-r", "billeter"):
        step("bench", "cuda", suite, status="not run", reason=NO_CUDA)
    (root / "reproduce.json").write_text(json.dumps(
        {"papers": ["moreira", "cross-api", "redzone", "billeter", "cpu"], "quick": True, "winnow": "abc1234",
         "command": "winnow reproduce all --quick --out R", "steps": steps}))


def run(*args, hide_matplotlib=False):
    """reproduce.py in a fresh interpreter (this one's), optionally one where `import matplotlib` fails."""
    if hide_matplotlib:
        code = ("import runpy, sys; sys.modules['matplotlib'] = None; sys.argv = [sys.argv[1]] + sys.argv[2:]; "
                "runpy.run_path(sys.argv[0], run_name='__main__')")
        cmd = [sys.executable, "-c", code, str(SCRIPT), *map(str, args)]
    else:
        cmd = [sys.executable, str(SCRIPT), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def has_matplotlib():
    return subprocess.run([sys.executable, "-c", "import matplotlib"], capture_output=True).returncode == 0


class Reproduce(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-reproduce-test-"))
        cls.dir = cls.tmp / "quick"
        make_dir(cls.dir)
        cls.result = run(cls.dir)
        cls.report = json.loads((cls.dir / "report.json").read_text()) if (cls.dir / "report.json").exists() else None
        cls.md = (cls.dir / "report.md").read_text() if (cls.dir / "report.md").exists() else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_and_files(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertIsNotNone(self.report)
        self.assertEqual(list(self.report["papers"]), ["moreira", "cross-api", "redzone", "billeter", "cpu"])

    def test_add_and_remove_is_its_own_table_apart_from_the_sweep(self):
        # The cpu paper's (the last; redzone's, on CUDA, is not made here).
        section = self.md.split("### §4.6: adding and removing in one operation")[-1].split("###")[0]
        self.assertIn("| 2 % | 10 % | 1153434 |", section)  # 1M + 10 %
        self.assertIn("| 10 % | 1 % |", section)
        # The append column is Redzone's append phase: a quarter of its total here (1M, k = 2 %, g = 10 %).
        self.assertIn(f"| {(40 * 0.12 * 1048576 + 1e4) / 4 / 1e6:.2f} |", section)
        # The gains cases stay out of Fig. 7's n sweep: its 1M rows are the plain cases only.
        fig7 = self.md.split("### Fig. 7: Redzone against Stencil")[1].split("###")[0]
        self.assertEqual(fig7.count("| 2 % | 1M |"), 1)

    def test_fig7_is_drawn_at_the_papers_block_when_it_ran(self):
        # Fig. 7 at B = 256 as published, not the block nearest to it (128 or 512 would be taken without it).
        for api in ("gl", "vkfrag", "vk"):
            section = self.md.split(f"### Fig. 7 ({api}): time per phase")[1].split("\n### ")[0]
            self.assertIn("here 64K, B = 256.", section, api)
            self.assertIn("| BT | 50 % |", section, api)

    def test_the_report_says_what_the_concatenation_probe_chose(self):
        # gl and vkfrag ran concat=auto (their records say lines); vk has no probe, so no line for it.
        for api, name in (("gl", "GL fragment"), ("vkfrag", "Vulkan fragment")):
            said = re.search(rf"\n- {name} \(`{api}`\): the blocks concatenated as the start-up probe chose "
                             r"\(`concat=auto`\): lines in (\d+) of (\d+) records\.", self.md)
            self.assertIsNotNone(said, api)
            self.assertEqual(said[1], said[2], api)
        self.assertNotIn("(`vk`): the blocks concatenated", self.md)

    def test_measured_papers_are_filled_and_judged(self):
        for name in ("moreira", "cross-api", "cpu"):
            paper = self.report["papers"][name]
            self.assertTrue(paper["tables"], name)
            for t in paper["tables"]:
                self.assertTrue(t["filled"], f"{name}: {t}")
                self.assertIsNone(t["missing"], f"{name}: {t}")
            self.assertGreaterEqual(len({v["finding"].split(" [")[0] for v in paper["verdicts"]}), 3, name)
            for v in paper["verdicts"]:
                self.assertIn(v["verdict"], ("holds", "changed"), f"{name}: {v}")
                self.assertTrue(v["evidence"], f"{name}: {v}")

    def test_the_geometry_table_reads_gls_calibration_without_cuda(self):
        t = next(t for t in self.report["papers"]["billeter"]["tables"]
                 if t["name"] == "Table 3's geometry-shader compactor taken apart")
        self.assertTrue(t["filled"], t)
        part = self.md.split("### Table 3's geometry-shader compactor taken apart")[1].split("###")[0]
        self.assertIn("| the vertex stage alone, every point captured (no geometry stage) | 40.000 | 0.105 | 1.00× |", part)
        self.assertIn("the geometry stage adds 120.000 ms (75%)", part)

    def test_a_step_is_found_by_its_results_name_and_says_why_it_did_not_run(self):
        # adaptive and adaptive-images run the same suite: the manifest's name tells them apart.
        self.assertIn("| bench | gl | adaptive (as adaptive-images) | not run | 1.0 | " + NO_IMAGES + " |", self.md)
        section = self.md.split("### Adaptive algorithm (gl)")[1].split("###")[0]
        self.assertIn("The held-back real images (`gl/adaptive-images.jsonl`): gl not run here: " + NO_IMAGES, section)
        self.assertIn("| finger:64K |", section)  # the suite's own records still fill the table
        sys.path.insert(0, str(HERE))
        from papers.common import Run  # noqa: E402
        run = Run(self.dir)
        self.assertEqual(run.step("bench", "gl", "adaptive")["status"], "done")
        self.assertEqual(run.step("bench", "gl", "adaptive-images")["status"], "not run")

    def test_cuda_papers_say_why_not(self):
        for name in ("redzone", "billeter"):
            paper = self.report["papers"][name]
            self.assertTrue(paper["tables"] and paper["verdicts"], name)
            for t in paper["tables"]:
                if t["name"].endswith("(cpu)"):  # the preserve list's table on the cpu, which ran
                    continue
                if t["name"] == "Table 3's geometry-shader compactor taken apart":  # GL's, from gl's calibration
                    continue
                self.assertFalse(t["filled"])
                self.assertIn("no CUDA device", t["missing"])
            for v in paper["verdicts"]:
                self.assertEqual(v["verdict"], "not measured", v)
                self.assertIn("no CUDA device", v["reason"])
            for f in paper["figures"]:
                if f["file"] == "redzone-preserve.png":  # its cpu panels
                    continue
                self.assertFalse(f["drawn"])
                self.assertIn("no CUDA device", f["missing"])

    def test_the_preserve_list_against_redzone_across_p(self):
        cpu = self.md.split("### Future work: compaction from a preserve list (cpu)")[1].split("###")[0]
        self.assertIn("| 2 % | 1M | 4 MiB | 30838 | 849 | 6291 | 8389 | 0.03× |\n", cpu)
        self.assertIn(f"| 98 % | 1M | 4 MiB | 639 | 41114 | 6291 | 8389 | {6291456 / 639145.6:.2f}× |\n", cpu)
        self.assertNotIn("share", cpu.split("\n\n")[2])  # the gather is its one phase: no column that always reads 100 %
        cuda = next(t for t in self.report["papers"]["redzone"]["tables"]
                    if t["name"] == "Future work: compaction from a preserve list (cuda)")
        self.assertFalse(cuda["filled"])
        self.assertIn("no CUDA device", cuda["missing"])

    def test_figures(self):
        expected = {"moreira-fig8-10-density.png", "moreira-fig7.png", "cpu-fig7.png", "cpu-fig7-phases.png", "cpu-fig7-shares.png",
                    "redzone-preserve.png"}
        drawn = {f["file"] for p in self.report["papers"].values() for f in p["figures"] if f["drawn"]}
        if has_matplotlib():
            self.assertEqual(drawn, expected)
            for name in expected:
                self.assertGreater((self.dir / name).stat().st_size, 10000, name)
        else:
            self.assertEqual(drawn, set())

    def test_unverified_listed_not_used(self):
        self.assertIn("failed verification", self.md)
        self.assertIn("cpu/redzone (threads=1) on removal:1M:k=0.02", self.md)
        # Its 1 ns would be 0.00 ms in the Fig. 7 table; the verified redzone at 1M, k = 2 % is ~0.85 ms.
        row = next(line for line in self.md.splitlines() if line.startswith("| 2 % | 1M |"))
        self.assertNotIn("| 0.00 |", row)

    def test_noisy_records_are_flagged(self):
        self.assertIn("Noisy records: relative noise over 5%", self.md)
        self.assertIn("cpu/sequential (defaults) on removal:128K:k=0.5:r=uniform:seed=1: 20.0%", self.md)
        self.assertNotIn("removal:1M:k=0.5:r=uniform:seed=1: 1.0%", self.md)

    def test_the_adaptive_algorithm_is_judged_against_the_best_fixed_choice(self):
        section = self.md.split("### Adaptive algorithm (gl)")[1].split("###")[0]
        self.assertIn("| hand:4M | 41.943 bt 128 |", section)
        # pass, records on the device (the candidates one after another, then interleaved), records read back
        # (host × interleaved ran as host: one column, the record that ran as asked)
        self.assertIn("| 1.30 | 1.02 | 1.04 | 1.05 |", section)
        self.assertIn("records, device: / oracle", section)  # where the choice was made: a column each
        self.assertIn("records, device, interleaved: / oracle", section)  # and the schedule on the device
        self.assertIn("bt 2048", section)  # the file case's choice
        # What auto weighed, per model and size, from the records' notes; none where a record has no notes.
        self.assertIn("| choice=auto weighed (the records' notes) | n |", section)
        self.assertIn("| pass, auto → ? | 64K | 0.1 | 0.7 | 30.0-32.0 | runs it, no sample |", section)
        self.assertIn("| records, auto → host | 4M | 4194.3 | 41.9 | 30.0 | samples and chooses |", section)
        self.assertIn("| records, auto → device | 4M | 40.7 | 11.8 | 32.5 | runs it, no sample |", section)
        verdict = self.md.split("The adaptive algorithm is within 10 % of the best fixed choice")[1].split("\n- ")[0]
        self.assertIn("gl: **holds** — model records, device: adaptive / oracle on the image cases at 4M (1) 1.02-1.02", verdict)

    def test_interrupted_is_said(self):
        self.assertIn("interrupted: 42 of 48 planned records", self.md)

    def test_no_matplotlib(self):
        out = self.tmp / "nompl"
        r = run(self.dir, "--out", out, hide_matplotlib=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        report = json.loads((out / "report.json").read_text())
        md = (out / "report.md").read_text()
        self.assertIn("matplotlib cannot be imported", md)
        for p in report["papers"].values():
            for f in p["figures"]:
                self.assertFalse(f["drawn"])
                self.assertTrue(f["missing"])
        self.assertFalse(list(out.glob("*.png")))
        self.assertTrue(all(t["filled"] for t in report["papers"]["moreira"]["tables"]))

    def test_calibration_of_another_device_is_refused(self):
        d = self.tmp / "otherdev"
        shutil.copytree(self.dir, d)
        write_jsonl(d / "vk" / "calibrate.jsonl", calibrate_lines("vk", device="NVIDIA H200"))
        r = run(d, "--paper", "cross-api")
        self.assertEqual(r.returncode, 0, r.stderr)
        paper = json.loads((d / "report.json").read_text())["papers"]["cross-api"]
        vk = next(v for v in paper["verdicts"] if v["finding"].endswith("[vk]"))
        self.assertEqual(vk["verdict"], "not measured")
        self.assertIn("NVIDIA H200", vk["reason"])

    def test_missing_calibration_is_said(self):
        d = self.tmp / "nocal"
        shutil.copytree(self.dir, d)
        os.remove(d / "gl" / "calibrate.jsonl")
        r = run(d, "--paper", "moreira")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("gl: no model — no gl/calibrate.jsonl", (d / "report.md").read_text())

    def test_explicit_papers_without_manifest(self):
        d = self.tmp / "nomanifest"
        shutil.copytree(self.dir, d)
        os.remove(d / "reproduce.json")
        r = run(d, "--paper", "cpu", "--out", d / "out")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(list(json.loads((d / "out" / "report.json").read_text())["papers"]), ["cpu"])
        self.assertEqual(run(d).returncode, 2)  # neither a manifest nor --paper: nothing to report

    def test_table1_within_256_trip_loops_and_horn_by_steps(self):
        loops = self.md.split("### Table 1 within 256-iteration loops (gl)")[1].split("###")[0]
        # finger 16K, finger 256K, i_finger 16K, i_finger 256K; published (256K) beside Horn's loop and RLZ's
        # fast search only; JJ's fastest usable limited record (not its slower, skipped or unlimited copies).
        self.assertIn("| 32 | Horn | 0.426 | 6.816 / 13.24 | 0.426 | — / 14.15 |", loops)
        self.assertIn("| 32 | Horn, by steps | 0.596 | 9.542 | 0.639 | — |", loops)
        self.assertIn("| 32 | JJ | 0.393 | 6.291 / 13.21 | 0.393 | — / 12.05 |", loops)
        self.assertIn("| 32 | RLZ, fast search | 0.590 | 9.437 / 12.66 | 0.590 | — / 13.52 |", loops)
        self.assertIn("| 32 | RLZ, plain search | 0.655 | 10.486 | 0.655 | — |", loops)
        self.assertIn("| 512 | JJ | over 256 (511) | — | over 256 (511) | — |", loops)
        self.assertIn("| 512 | RLZ, plain search | over 256 (257) | — | over 256 (257) | — |", loops)
        self.assertIn("| 512 | RLZ, fast search | 0.590 | — / 10.85 | 0.590 | — / 11.91 |", loops)
        steps = self.md.split("### Horn's search by steps (gl)")[1].split("###")[0]
        geo = math.exp(sum(math.log(1.4 + 0.1 * i) for i in range(6)) / 6)  # the geometric mean, not another
        self.assertIn(f"| 32 | 16K | 30 | 35 | {geo:.2f}× [1.40, 1.90] |", steps)
        self.assertIn(f"| 512 | 16K | 30 | 39 | {geo:.2f}× [1.40, 1.90] |", steps)
        self.assertIn("| 32 | 256K | 30 | 35 | 1.40× [1.40, 1.40] |", steps)
        verdicts = {v["finding"]: v for v in self.report["papers"]["moreira"]["verdicts"]}
        jj = verdicts[f"{JJ_FINDING} [gl]"]
        self.assertEqual(jj["verdict"], "holds", jj)
        self.assertIn("6 of 6 refused (may loop 511 times), 0 ran; below: 8 ran, 0 refused; 1 skipped otherwise", jj["evidence"])

    def jj_verdict(self, name, api, skip):
        """The JJ loop-limit finding on `api` after skip(record) -> reason marks that api's JJ records skipped."""
        d = self.tmp / name
        shutil.copytree(self.dir, d)
        recs = [json.loads(line) for line in (d / api / "moreira-era.jsonl").read_text().splitlines()]
        for r in recs:
            why = skip(r) if r["algorithm"] == f"{api}/jj" else None
            if why:
                r["skipped"], r["phases"] = f"{r['case']}: {why}", []
        write_jsonl(d / api / "moreira-era.jsonl", recs)
        self.assertEqual(run(d, "--paper", "moreira").returncode, 0)
        verdicts = {v["finding"]: v for v in json.loads((d / "report.json").read_text())["papers"]["moreira"]["verdicts"]}
        return verdicts[f"{JJ_FINDING} [{api}]"]

    def test_a_plan_refused_below_512_changes_the_loop_limit_finding(self):
        v = self.jj_verdict("refused128", "vk", lambda r: r["params"]["block"] == "32"
                            and "jj at block 32 may loop 300 times, over loop_limit=256")
        self.assertEqual(v["verdict"], "changed", v)

    def test_jj_skipped_for_other_reasons_leaves_the_loop_limit_finding_unmeasured(self):
        v = self.jj_verdict("jjoom", "gl", lambda r: "out of memory")
        self.assertEqual(v["verdict"], "not measured", v)

    def test_without_the_era_suite_its_tables_and_finding_say_why(self):
        d = self.tmp / "noera"
        shutil.copytree(self.dir, d)
        os.remove(d / "vk" / "moreira-era.jsonl")
        self.assertEqual(run(d, "--paper", "moreira").returncode, 0)
        paper = json.loads((d / "report.json").read_text())["papers"]["moreira"]
        for name in ("Table 1 within 256-iteration loops (vk)", "Horn's search by steps (vk)"):
            t = next(t for t in paper["tables"] if t["name"] == name)
            self.assertFalse(t["filled"])
            self.assertIn("vk/moreira-era.jsonl", t["missing"])
        v = next(v for v in paper["verdicts"] if v["finding"] == f"{JJ_FINDING} [vk]")
        self.assertEqual(v["verdict"], "not measured")
        self.assertIn("vk/moreira-era.jsonl", v["reason"])

    def test_unreadable_input_fails(self):
        d = self.tmp / "bad"
        shutil.copytree(self.dir, d)
        with open(d / "gl" / "moreira.jsonl", "a") as f:
            f.write("{not json\n")
        r = run(d)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not JSON", r.stderr)


class BilleterFig4(unittest.TestCase):
    """Fig. 4 from a size sweep at 10, 50 and 90 % valid: each point the mean over the densities, with their range."""

    def test_means_over_densities_with_their_range_and_a_small_n_panel(self):
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-billeter-test-"))
        try:
            recs = []
            for size in ("64K", "256K", "1M", "16M"):
                for p in ("0.1", "0.5", "0.9"):
                    case = f"uniform:{size}:p={p}"
                    t = SIZES[size] * (1 + float(p))  # 1.1, 1.5, 1.9 ns per element
                    for output, slower in (("staged", 1.0), ("buffered", 1.2)):
                        recs.append(record("cuda", "billeter", {"compact": "popc", "output": output, "element": "32"},
                                           case, t * slower))
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
            write_jsonl(tmp / "gl" / "calibrate.jsonl", [
                {"api": "gl", "device": DEVICE["gl"][0], "name": k, "value": v, "unit": "ns", "how": "test"}
                for k, v in {"empty_pass_ns": 5000, "feedback_vertex_ns_4M": 2e6, "feedback_geometry_all_ns_4M": 1.2e7,
                             "feedback_geometry_none_ns_4M": 1e7}.items()])
            r = run(tmp, "--paper", "billeter", "--out", tmp / "out")
            self.assertEqual(r.returncode, 0, r.stderr)
            md = (tmp / "out" / "report.md").read_text()
            self.assertIn("Fig. 4: time against n, the mean over 10, 50 and 90 % valid", md)
            # 16M: mean 1.5 ns × 2^24 = 25.166 ms, range 18.455 … 31.877; the staged variant is the fixed one.
            row = next(line for line in md.splitlines() if line.startswith("| 16M |"))
            self.assertIn("25.166 [18.455, 31.877]", row)
            self.assertIn("popc/staged", md)
            row = next(line for line in md.splitlines() if line.startswith("| geometry shader + transform feedback (GL) |"))
            self.assertIn("12.000 | 12.00× |", row)  # 12 ms against Billeter's 1 ms at 4M
            self.assertIn("Geometry Shaders (GTX280) 7.05 ms, 12.6×", row)
            row = next(line for line in md.splitlines() if line.startswith("| HistoPyramid (GL) |"))
            self.assertIn("3.000 | 3.00× |", row)
            self.assertIn("Ziegler et al. [2006] (GTX280) 2.54 ms, 4.53×", row)
            parts = md.split("### Table 3's geometry-shader compactor taken apart")[1].split("###")[0]
            self.assertIn(f"on {DEVICE['gl'][0]}", parts)
            self.assertIn("| gl/geometry, mean over 5 densities (Table 3's row) | 12.000 | 0.350 | 6.00× |", parts)
            self.assertIn("| gl/geometry's draw, no word valid: nothing emitted | 10.000 | 0.419 | 5.00× |", parts)
            self.assertIn("| the vertex stage alone, every point captured (no geometry stage) | 2.000 | 2.097 | 1.00× |", parts)
            self.assertIn("Of the 12.000 ms with every point emitted, the geometry stage adds 10.000 ms (83%) to the same "
                          "draw without it, and emitting adds 2.000 ms (17%) to emitting nothing; the rest, 2.000 ms (17%), is "
                          "the points through the vertex stage and transform feedback alone.", parts)
            # No cuda/calibrate.jsonl: Tables 1-2 say so.
            self.assertIn("Tables 1-2: the pass-through copy by access width", md)
            self.assertIn("no cuda/calibrate.jsonl", md.split("### Tables 1-2")[1].split("###")[0])
            figs = {f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["billeter"]["figures"]}
            if has_matplotlib():
                self.assertTrue(figs["billeter-fig4.png"]["drawn"], figs["billeter-fig4.png"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class RedzoneFig6OverN(unittest.TestCase):
    """Suite redzone-r: Redzone 2 as published on the r cases over n, seeds merged, drawn per k against n."""

    def test_the_r_cases_over_n_are_tabled_and_drawn(self):
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-redzone-r-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        published = {"batch": "0", "early": "off", "order": "off", "prefetch": "off", "shared": "off"}
        recs = []
        for size in ("128K", "1M", "16M"):
            for k in ("0.02", "0.1", "0.5"):
                for r in ("0", "0.5", "1"):
                    for seed, slower in ((1, 1.0), (2, 4.0)):  # log mean: 2 × the first seed
                        t = SIZES[size] * float(k) * (2 - float(r)) * slower
                        noisy = size == "128K" and k == "0.02" and r == "0"
                        recs.append(record("cuda", "redzone2", published, f"removal:{size}:k={k}:r={r}:seed={seed}", t,
                                           phases=["mark", "fill", "orphans"], noise=0.2 if noisy else 0.01))
        # Interrupted after the first seed of the last point: its mean is of one seed, and says so.
        recs.pop()
        write_jsonl(tmp / "cuda" / "redzone-r.jsonl", recs)
        (tmp / "cuda" / "redzone-r.status.json").write_text(json.dumps(
            {"complete": False, "records": len(recs), "planned": 60, "not_run": {}}))
        r = run(tmp, "--paper", "redzone", "--out", tmp / "out")
        self.assertEqual(r.returncode, 0, r.stderr)
        md = (tmp / "out" / "report.md").read_text()
        # The header names the suite's own file and that it is incomplete, not only the main suite's;
        # its noisy records are listed with the main suite's; it names the card (no main suite names
        # it here) and the builds that made them, and how many runs the merged records stand for.
        self.assertIn("removal:128K:k=0.02:r=0", md.split("### Noisy records")[1])
        points = (len(recs) + 1) // 2
        used = (f"cuda/redzone-r.jsonl (NVIDIA Test GPU, winnow abc1234): {len(recs)} runs used "
                f"({points} points, their seeds merged)")
        self.assertIn(used, md)
        self.assertIn(f"interrupted: {len(recs)} of 60 planned records (cuda/redzone-r.status.json)", md)
        section = md.split("Fig. 6 over n: the red-zone fraction r")[1].split("\n### ")[0]
        # k = 10 %, r = 50 % at 16M: 2^24 · 0.1 · 1.5 · 2 ns = 5033 µs; a third of it marking.
        row = next(line for line in section.splitlines() if line.startswith("| 10 % | 50 % |"))
        self.assertIn("| 5033 |", row)
        self.assertIn("16M (64 MiB) [µs]", section)
        self.assertIn("33 %", row)
        self.assertNotIn("| 90 % |", section)
        # k = 50 %, r = 100 % at 16M, seed 1 alone: 2^24 · 0.5 · 1 ns = 8389 µs.
        self.assertIn("| 50 % | 100 % |", section)
        self.assertIn("| 8389 (1 of 2 seeds) |", section)
        self.assertNotIn("of 2 seeds", row)
        figs = {f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["redzone"]["figures"]}
        fig = figs["redzone-fig6-n.png"]
        self.assertIn("Fewer seeds than the rest: k = 50 %, r = 100 %, 16M (1 of 2).", fig["caption"])
        self.assertIn("NVIDIA Test GPU, cuda, winnow abc1234", fig["title"])  # its own records' card, not '?'
        if has_matplotlib():
            self.assertTrue(fig["drawn"], fig)
        # Kept compressed, as committed results are, the records read the same.
        import gzip
        with gzip.open(tmp / "cuda" / "redzone-r.jsonl.gz", "wt") as f:
            f.write((tmp / "cuda" / "redzone-r.jsonl").read_text())
        (tmp / "cuda" / "redzone-r.jsonl").unlink()
        r = run(tmp, "--paper", "redzone", "--out", tmp / "out-gz")
        self.assertEqual(r.returncode, 0, r.stderr)
        md_gz = (tmp / "out-gz" / "report.md").read_text()
        self.assertIn(used.replace(".jsonl", ".jsonl.gz"), md_gz)
        self.assertIn(row, md_gz)
        # Beside a main suite of the same card, the card is named once, in the main suite's line.
        write_jsonl(tmp / "cuda" / "redzone.jsonl", recs[:1])
        r = run(tmp, "--paper", "redzone", "--out", tmp / "out-both")
        self.assertEqual(r.returncode, 0, r.stderr)
        md_both = (tmp / "out-both" / "report.md").read_text()
        self.assertIn(f"- and cuda/redzone-r.jsonl.gz (winnow abc1234): {len(recs)} runs used", md_both)
        self.assertIn("cuda/redzone.jsonl: 1 record used, 0 skipped", md_both)  # nothing merged: records
        # Without the suite's records the figure says why.
        (tmp / "cuda" / "redzone-r.jsonl.gz").unlink()
        r = run(tmp, "--paper", "redzone", "--out", tmp / "out2")
        self.assertEqual(r.returncode, 0, r.stderr)
        figs = {f["file"]: f for f in json.loads((tmp / "out2" / "report.json").read_text())["papers"]["redzone"]["figures"]}
        self.assertFalse(figs["redzone-fig6-n.png"]["drawn"])
        self.assertIn("redzone-r", figs["redzone-fig6-n.png"]["missing"])
        self.assertFalse(figs["redzone-fig6-phases.png"]["drawn"])
        self.assertIn("redzone-r", figs["redzone-fig6-phases.png"]["missing"])

    def test_fig6_phases_draws_each_phase_and_its_share_per_k_and_r(self):
        """Fig. 6's large panel: a row per k, a panel per r, a line per phase and the phases' shares stacked."""
        sys.path.insert(0, str(HERE))
        from papers.common import Figure, Rec
        from papers.redzone import fig6_phases

        class Paper:  # what fig6_phases uses of a paper
            figures = []

            def figure(self, *args, **kw):
                self.figures.append(Figure(*args, **kw))
                return self.figures[-1]

        cells = {}
        for k in (0.02, 0.5):
            for r in (0.0, 0.5, 1.0):
                for n in (1 << 15, 1 << 20):
                    d = record("cuda", "redzone2", {}, f"removal:{n}:k={k}:r={r:g}", 4e3, n=n, phases=["mark", "fill", "orphans"])
                    for ph, part in zip(d["phases"], (1, 2, 1)):  # mark 25 %, fill 50 %, orphans 25 %
                        ph["median_ns"] = 1e3 * part * (1 + r)
                    d["total"]["median_ns"] = 4e3 * (1 + r)
                    cells[(k, r, n)] = Rec(d, "t")
        paper = Paper()
        fig6_phases(paper, cells, "Test GPU", "", "no records")
        f = paper.figures[0]
        self.assertEqual(f.file, "redzone-fig6-phases.png")
        self.assertEqual([len(row) for row in f.rows], [3, 3])
        panel = f.rows[1][2]
        self.assertEqual(panel.title, "k = 50 %, r = 100 %")
        self.assertEqual([s.label for s in panel.series], ["mark", "fill", "orphans"])
        self.assertEqual(panel.series[1].ys, [4.0, 4.0])  # fill: 2 µs × (1 + r), in µs
        xs, shares = panel.shares
        self.assertEqual(xs, [1 << 15, 1 << 20])
        self.assertEqual([(ph, [round(v) for v in vs]) for ph, vs in shares],
                         [("mark", [25, 25]), ("fill", [50, 50]), ("orphans", [25, 25])])
        # A panel whose records lack a phase keeps every phase in its place (greys are by place), at 0 %,
        # and the shares of what ran still stack to 100 (the total of merged seeds need not add up).
        for n in (1 << 15, 1 << 20):
            cells[(0.02, 0.0, n)].phases.pop("orphans")
            cells[(0.02, 0.0, n)].total *= 1.5
        paper = Paper()
        paper.figures = []
        fig6_phases(paper, cells, "Test GPU", "", "no records")
        _, shares = paper.figures[0].rows[0][0].shares
        self.assertEqual([(ph, [round(v) for v in vs]) for ph, vs in shares],
                         [("mark", [33, 33]), ("fill", [67, 67]), ("orphans", [0, 0])])


class CpuFig7Seeds(unittest.TestCase):
    """Suite cpu with the paper's statistics (bench --seeds): a point's time is the logarithmic mean over its
    seeds, and a point an interrupted bench left short of seeds says how many it has."""

    def test_short_points_are_marked(self):
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-cpu-seeds-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        recs = []
        for size in ("128K", "1M"):
            for k in ("0.02", "0.9"):
                for algo, per in (("redzone", 40 * float(k)), ("stencil", 3.0), ("sequential", 8.0)):
                    for seed, slower in ((1, 1.0), (2, 4.0)):  # log mean: 2 × the first seed
                        recs.append(record("cpu", algo, {}, f"removal:{size}:k={k}:r=uniform:seed={seed}",
                                           SIZES[size] * per * slower))
        recs.pop()  # the sequential loop at 1M, k = 90 %: seed 1 alone
        # A second variant with one seed, faster than the point's 20-seed mean: it must not stand for the point.
        recs.append(record("cpu", "redzone", {"batches": "9"}, "removal:128K:k=0.02:r=uniform:seed=1", SIZES["128K"] * 0.4))
        write_jsonl(tmp / "cpu" / "cpu.jsonl", recs)
        r = run(tmp, "--paper", "cpu", "--out", tmp / "out")
        self.assertEqual(r.returncode, 0, r.stderr)
        md = (tmp / "out" / "report.md").read_text()
        section = md.split("### Fig. 7: Redzone against Stencil")[1].split("\n### ")[0]
        self.assertIn("the logarithmic mean of their medians (up to 2 seeds); one with fewer", section)
        # Stencil at 1M: 2^20 · 3 · 2 ns = 6.29 ms; the sequential loop, seed 1 alone: 2^20 · 8 ns = 8.39 ms.
        row = next(line for line in section.splitlines() if line.startswith("| 90 % | 1M |"))
        self.assertIn("| 6.29 | 8.39 (1 of 2 seeds) |", row)
        self.assertNotIn("of 2 seeds", next(line for line in section.splitlines() if line.startswith("| 2 % | 1M |")))
        # Redzone at 128K, k = 2 %: the two seeds' mean, 2^17 · 0.8 · 2 ns = 0.21 ms, not the one-seed variant's 0.05.
        self.assertIn("| 2 % | 128K | 512 KiB | 0.21 |", section)
        # The bars table: per k at the largest n every algorithm ran; the short point says so there too.
        bars = md.split("### Fig. 7 (bars)")[1].split("\n### ")[0]
        self.assertIn("| sequential loop | 90 % | 1M | 8.39 (1 of 2 seeds) |", bars)
        self.assertIn("| Redzone | 2 % | 1M |", bars)
        figs = {f["file"]: f for f in json.loads((tmp / "out" / "report.json").read_text())["papers"]["cpu"]["figures"]}
        for name in ("cpu-fig7.png", "cpu-fig7-phases.png", "cpu-fig7-shares.png"):
            self.assertIn("Fewer seeds than the rest: k = 90 %, 1M, sequential loop (1 of 2).", figs[name]["caption"])
        self.assertIn("the logarithmic mean over its seeds' medians (up to 2 seeds)", figs["cpu-fig7.png"]["caption"])
        self.assertIn("logarithmic means over up to 2 seeds, the black mark the largest total",
                      figs["cpu-fig7-phases.png"]["caption"])


class BilleterTables12(unittest.TestCase):
    """Tables 1-2 from the cuda calibrate step: by access width, and Table 2's band around 24M; Tables 4-5
    (the prefix sums and the radix sorts) from the same step."""

    def report(self, band, device=None, extra=None, vk=None):
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-billeter12-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        if vk:
            write_jsonl(tmp / "vk" / "calibrate.jsonl", [
                {"api": "vk", "device": "Some Vulkan GPU", "name": k, "value": v, "unit": "GB/s", "how": "test"}
                for k, v in vk.items()])
        recs = [record("cuda", "billeter", {"compact": "popc", "output": "staged", "element": "32"}, "uniform:4M:p=0.5", 1e6)]
        write_jsonl(tmp / "cuda" / "billeter.jsonl", recs)
        values = {"empty_pass_ns": 3000, "memcpy_bytes_per_ns_256M": 3000, "copy_bytes_per_ns_256M_b4": 2400,
                  "copy_bytes_per_ns_256M_b8": 2800, "copy_bytes_per_ns_256M_b16": 2700, "roofline_bytes_per_ns": 3000,
                  "copy_bytes_per_ns_24M-100k_b4": band[0], "copy_bytes_per_ns_24M_b4": band[1],
                  "copy_bytes_per_ns_24M+100k_b4": band[2], **(extra or {})}
        write_jsonl(tmp / "cuda" / "calibrate.jsonl", [
            {"api": "cuda", "device": device or DEVICE["cuda"][0], "name": k, "value": v, "unit": "GB/s", "how": "test"}
            for k, v in values.items()])
        r = run(tmp, "--paper", "billeter", "--out", tmp / "out")
        self.assertEqual(r.returncode, 0, r.stderr)
        rep = json.loads((tmp / "out" / "report.json").read_text())["papers"]["billeter"]
        return (tmp / "out" / "report.md").read_text(), {v["finding"]: v for v in rep["verdicts"]}

    def test_widths_and_the_band_beside_the_published_numbers(self):
        md, verdicts = self.report((2400, 600, 2400))
        section = md.split("### Tables 1-2")[1].split("###")[0]
        self.assertIn("| 256M | 2400 | 2800 | 2700 | 3000 |", section)
        self.assertIn("| published: GTX 280 (Table 1) | 77.8 | 102.5 | 73.4 | — |", section)
        self.assertIn("| 24M | 600 | 24.0 |", section)
        widest = verdicts["64-bit accesses give the pass-through its highest bandwidth"]
        self.assertEqual(widest["verdict"], "holds", widest)
        band = verdicts["The pass-through bandwidth falls to a quarter in a narrow band around 24M elements"]
        self.assertEqual(band["verdict"], "holds", band)
        self.assertIn("0.25×", band["evidence"])
        _, verdicts = self.report((2400, 2300, 2400))
        band = verdicts["The pass-through bandwidth falls to a quarter in a narrow band around 24M elements"]
        self.assertEqual(band["verdict"], "changed", band)

    def test_vulkan_widths_take_the_best_workgroup_size_of_each(self):
        vk = {"empty_pass_ns": 5000, "copy_bytes_per_ns_256M_b4_l64": 1700,
              "copy_bytes_per_ns_4M_b4_l64": 900, "copy_bytes_per_ns_4M_b4_l256": 1000, "copy_bytes_per_ns_256M_b4_l256": 1600,
              "copy_bytes_per_ns_256M_b8_l64": 2000, "copy_bytes_per_ns_256M_b8_l1024": 2600,
              "copy_bytes_per_ns_256M_b16_l256": 3100, "copy_bytes_per_ns_256M_b16_l1024": 3050,
              "copy_bytes_per_ns_4M_items4": 2000, "roofline_bytes_per_ns": 3100}
        md, _ = self.report((2400, 600, 2400), vk=vk)
        section = md.split("### Tables 1-2")[1].split("###")[0]
        self.assertIn("| n, Vulkan compute (vk/calibrate.jsonl, on Some Vulkan GPU) |", section)
        # Sizes in order, a width not measured at a size shown as such, items4 and the roofline not rows.
        self.assertIn("| 4M | 1000 | — | — | 256 / — / — |\n| 256M | 1700 | 2600 | 3100 | 64 / 1024 / 256 |", section)
        md, _ = self.report((2400, 600, 2400))
        self.assertIn("not measured: no vk/calibrate.jsonl", md.split("### Tables 1-2")[1].split("###")[0])

    def test_tables_from_the_calibration_alone_name_its_device(self):
        # Tables 1-2 (and 4-5) combine nothing with the records: a calibration of another device than
        # the records' is used, and the table says whose it is.
        md, verdicts = self.report((2400, 600, 2400), device="Some Other GPU")
        self.assertIn("on Some Other GPU", md.split("### Tables 1-2")[1].split("###")[0])
        self.assertEqual(verdicts["64-bit accesses give the pass-through its highest bandwidth"]["verdict"], "holds")

    def test_prefix_sums_and_radix_sorts_beside_the_published_numbers(self):
        extra = {"prefix_sum_billeter_32M_out": 100.0, "prefix_sum_cub_32M_out": 150.0, "prefix_sum_billeter_32M_in": 90.0,
                 "prefix_sum_cub_32M_in": 140.0, "prefix_sum_billeter_220M_in": 700.0, "prefix_sum_cub_220M_in": 600.0,
                 "radix_sort_billeter_keys_4M": 1500.0, "radix_sort_cub_keys_4M": 170.0,
                 "radix_sort_billeter_pairs_separate_4M": 1800.0, "radix_sort_cub_pairs_separate_4M": 220.0}
        md, verdicts = self.report((2400, 600, 2400), extra=extra)
        t4 = md.split("### Table 4 (§5.2): the prefix sum")[1].split("###")[0]
        self.assertIn("| 32M | out of place | 0.100 | 0.150 | 0.67× | 2684 | 3.7 / 5.3 |", t4)
        self.assertIn("| 220M | in place | 0.700 | 0.600 | 1.17× |", t4)
        t5 = md.split("### Table 5 (§5.3)")[1].split("###")[0]
        self.assertIn("| 32-bit keys | 1.500 | 0.170 | 8.82× | 27.6 / 28.2 / 50.1 |", t5)
        self.assertIn("| 32-bit keys, 96-bit values, interleaved | — | — | — | — / 61.7 / — |", t5)
        self.assertEqual(verdicts["Billeter's prefix sum is faster than the library's"]["verdict"], "holds")
        self.assertEqual(verdicts["The split radix sort is as fast as the fastest library sort"]["verdict"], "changed")
        md, verdicts = self.report((2400, 600, 2400))
        self.assertEqual(verdicts["Billeter's prefix sum is faster than the library's"]["verdict"], "not measured")


class Cis565(unittest.TestCase):
    """Scans timed alone (calibrate's cis565_scan_*), compaction with and without a scan, the block-size study,
    the write-up's test program beside ours."""

    def folder(self, scans=True):
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="winnow-cis565-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)

        def rec(api, algo, n, phases, params=None):
            r = record(api, algo, params or {}, f"uniform:{n}:p=0.75", sum(phases.values()), n=n, phases=list(phases))
            for ph in r["phases"]:
                ph["median_ns"] = phases[ph["name"]]
            return r

        cpu, cuda, cal = [], [], []

        def scan(name, n, ns, block=None):  # alone at 0.8 × the compactions' scan phase: the tables must read these
            cal.append({"api": "cuda", "device": "Test GPU", "name": f"cis565_scan_{name}_n{n}" + (f"_b{block}" if block else ""),
                        "value": 0.8 * ns / 1e3, "unit": "µs", "how": "test"})

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
        self.assertEqual(r.returncode, 0, r.stderr)
        report = json.loads((tmp / "out" / "report.json").read_text())["papers"]["cis565"]
        return (tmp / "out" / "report.md").read_text(), {x["finding"]: x for x in report["verdicts"]}, report

    def test_tables_findings_and_the_block_study(self):
        md, v, report = self.folder()
        scan = md.split("### Scan, power-of-two n")[1].split("###")[0]
        self.assertIn("| 4K | 0.00080 | 0.0242 | 0.0160 | 0.0080 |", scan)  # block 128, the write-up's
        npot = md.split("### Scan, non-power-of-two n")[1].split("###")[0]
        self.assertIn("| 4K − 3 | 0.00080 | 0.0242 | 0.0192 |", npot)
        comp = md.split("### Stream compaction, power-of-two n")[1].split("###")[0]
        self.assertIn("| 4K | 0.0040 | 0.0030 | 0.0403 |", comp)  # the compactions at block 128 only
        block = md.split("### Block size")[1].split("###")[0]
        self.assertIn("| naive (Hillis-Steele), n = 16M | 2.0141 | 1.0070 | 1.5106 | 3.0211 | 128 |", block)
        self.assertIn("| work-efficient (Blelloch), n = 16M |", block)
        self.assertNotIn("n = 4K", block)  # one block size there: no study
        test = md.split("### The write-up's test program")[1].split("###")[0]
        self.assertIn("| naive scan | 0.15872 | 0.0242 | 0.119808 | 0.0242 |", test)
        self.assertIn("| work-efficient scan | 0.344064 | 0.0160 | 0.162912 | 0.0192 |", test)  # 2^8 left, 2^8 − 3 right
        self.assertIn("| CPU compact with scan | 0.0035 | 0.0030 | — | 0.0030 |", test)
        self.assertIn("| work-efficient compact | 0.305152 | 0.0301 | 0.195584 | 0.0341 |", test)
        self.assertIn("the scans alone on Test GPU", md)
        self.assertEqual(v["For tiny inputs the CPU scan wins"]["verdict"], "holds")
        self.assertIn("at n = 256 − 3", v["For tiny inputs the CPU scan wins"]["evidence"])
        self.assertEqual(v["Thrust's scan is the fastest on large inputs"]["verdict"], "holds")
        self.assertEqual(v["The naive scan degrades fastest as n grows (O(n log n) work)"]["verdict"], "holds")
        self.assertEqual(v["The work-efficient scan is slower on non-power-of-two sizes (padding)"]["verdict"], "holds")
        self.assertIn("1.20×", v["The work-efficient scan is slower on non-power-of-two sizes (padding)"]["evidence"])
        gpu = v["GPU work-efficient compaction overtakes the CPU as n grows"]
        self.assertEqual(gpu["verdict"], "holds", gpu)
        self.assertIn("first faster at 16M", gpu["evidence"])
        self.assertEqual(v["The scan, not the scatter, dominates the GPU compaction"]["verdict"], "holds")
        figures = {f["file"]: f for f in report["figures"]}
        self.assertEqual(set(figures), {"cis565-scan.png", "cis565-compaction.png", "cis565-blocks.png"})
        if has_matplotlib():
            self.assertTrue(all(f["drawn"] for f in figures.values()), figures)

    def test_times_below_a_microsecond_keep_two_digits_without_an_exponent(self):
        sys.path.insert(0, str(HERE))
        from papers.cis565 import ms
        self.assertEqual([ms(v) for v in (0.5, 0.0012, 0.00019, 0.000052, 0.0)],
                         ["0.5000", "0.0012", "0.00019", "0.000052", "0.0000"])

    def test_without_the_calibrate_step_the_scans_say_why(self):
        md, v, report = self.folder(scans=False)
        tables = {t["name"]: t for t in report["tables"]}
        for name in ("Scan, power-of-two n", "Scan, non-power-of-two n", "Block size"):
            self.assertFalse(tables[name]["filled"], name)
            self.assertIn("calibrate", tables[name]["missing"], name)
        self.assertTrue(tables["Stream compaction, power-of-two n"]["filled"])
        self.assertEqual(v["For tiny inputs the CPU scan wins"]["verdict"], "not measured")
        self.assertIn("calibrate", v["For tiny inputs the CPU scan wins"]["reason"])
        self.assertEqual(v["GPU work-efficient compaction overtakes the CPU as n grows"]["verdict"], "holds")


class Defaults(unittest.TestCase):
    """Which records the shader-era reports count as the default series, and which lines Fig. 4 draws."""

    def test_concat_auto_is_the_default_whatever_it_chose(self):
        sys.path.insert(0, str(HERE))
        from papers.common import Rec, is_shader_default
        base = {"block": "128", "scan": "hillis", "loop_limit": "none", "search": "loop"}
        rects = record("gl", "horn", dict(base, concat="auto"), "finger:64K", 1e6)
        rects["chosen"] = {"concat": "rects"}
        r = Rec(rects, "t")
        self.assertEqual(r.p("concat"), "rects")  # reads as what ran
        self.assertTrue(is_shader_default(r, "gl"))  # but auto is the default series
        self.assertFalse(is_shader_default(Rec(record("gl", "horn", dict(base, concat="rects"), "finger:64K", 1e6), "t"), "gl"))
        self.assertFalse(is_shader_default(Rec(record("gl", "horn", dict(base, concat="auto", search="steps"), "finger:64K", 1e6), "t"), "gl"))
        self.assertFalse(is_shader_default(Rec(record("gl", "jj", dict(base, concat="auto", loop_limit="256"), "finger:64K", 1e6), "t"), "gl"))
        self.assertTrue(is_shader_default(Rec(record("gl", "rlz", {"block": "128", "concat": "stacks", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"))
        self.assertTrue(is_shader_default(Rec(record("gl", "rlz", {"block": "128", "concat": "pairs", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"))
        # lines given by hand: a variant since stacks became the default
        self.assertFalse(is_shader_default(Rec(record("gl", "rlz", {"block": "128", "concat": "lines", "search": "fast"}, "finger:64K", 1e6), "t"), "gl"))

    def test_the_probes_choices_are_counted_per_method(self):
        sys.path.insert(0, str(HERE))
        from papers.common import Rec
        from papers.moreira import concat_choice
        base = {"block": "128", "scan": "hillis", "concat": "auto"}
        recs = []
        for chosen in ("rects", "lines", "rects", None):
            d = record("gl", "horn", dict(base), "finger:64K", 1e6)
            if chosen:
                d["chosen"] = {"concat": chosen}
            recs.append(Rec(d, "t"))
        recs.append(Rec(record("gl", "horn", dict(base, concat="lines"), "finger:64K", 1e6), "t"))  # given: no probe
        self.assertEqual(concat_choice("gl", recs),
                         "GL fragment (`gl`): the blocks concatenated as the start-up probe chose (`concat=auto`): "
                         "rects in 2 of 4 records, lines in 1 of 4 records, not recorded (a build before the "
                         "records named it) in 1 of 4 records.")
        self.assertIsNone(concat_choice("vk", [Rec(record("vk", "horn", {"block": "128", "concat": "copy"}, "finger:64K", 1e6), "t")]))

    def test_fig4_draws_the_shader_era_competitors_beside_every_library(self):
        sys.path.insert(0, str(HERE))
        from papers.billeter import COMPETITORS, fig4_lines
        cols = [(f"Billeter {e}", f"billeter:{e}", {}) for e in ("32", "64", "128")] + [(l, a, {}) for a, l in COMPETITORS]
        keys = [c[1] for c in fig4_lines(cols)]
        self.assertIn("geometry", keys)
        self.assertIn("histopyramid", keys)
        self.assertNotIn("scan_naive", keys)
        self.assertIn("ink_atomic", keys)
        self.assertEqual(len(keys), len(cols) - 1)  # only the naive scan left out: no line cut by the cap


    def test_a_finding_that_lists_some_exceptions_says_how_many_it_left_out(self):
        sys.path.insert(0, str(HERE))
        from papers.common import first_few
        self.assertEqual(first_few(["a", "b", "c"]), "a; b; c")
        self.assertEqual(first_few(list("abcdef")), "a; b; c; d; … and 2 more")
        self.assertEqual(first_few(list("abcdefgh"), 6, ", "), "a, b, c, d, e, f, … and 2 more")
        self.assertEqual(first_few([]), "")


class MergeSeeds(unittest.TestCase):
    """Records of several seeds of one case become one with log-mean times (the Redzone paper's statistic)."""

    def test_log_means_bounds_and_what_stays_apart(self):
        sys.path.insert(0, str(HERE))
        from papers.common import Rec, merge_seeds
        recs = [Rec({**record("cpu", "redzone", {"threads": "2"}, f"removal:1M:k=0.1:r=uniform:seed={s}", t), "winnow": c}, "t")
                for s, t, c in ((1, 100.0, "abc1234"), (2, 400.0, "abc1234"), (3, 200.0, "def5678"))]  # resumed: a later build
        recs.append(Rec(record("cpu", "redzone", {"threads": "2"}, "removal:1M:k=0.1:r=uniform:seed=4", 1e9, verified=False), "t"))
        recs.append(Rec(record("cpu", "redzone", {"threads": "1"}, "removal:1M:k=0.1:r=uniform:seed=1", 50.0), "t"))
        recs.append(Rec(record("cpu", "redzone", {"threads": "2"}, "removal:64K:k=0.1:r=uniform:seed=1", 10.0), "t"))
        out = merge_seeds(recs)
        self.assertEqual(len(out), 4)  # the merged three, the wrong seed, threads=1, the other size
        m = out[0]
        self.assertEqual(m.seeds, [1, 2, 3])
        self.assertAlmostEqual(m.total, 200.0)  # (100 · 400 · 200)^(1/3)
        self.assertEqual((m.total_min, m.total_max), (100.0, 400.0))
        self.assertEqual(m.commits, ["abc1234", "def5678"])  # every build the seeds ran on, for the header
        self.assertEqual(m.case.spec, "removal:1M:k=0.1:r=uniform")
        self.assertIsNone(m.case.seed)
        self.assertAlmostEqual(sum(m.phases.values()), 200.0)  # equal thirds: each phase's log mean is a third
        self.assertFalse(out[1].verified)
        self.assertEqual(out[2].params, {"threads": "1"})
        self.assertIsNone(out[2].seeds)  # one seed: the record as it was
        self.assertEqual(out[3].case.size, "64K")

    def test_runs_asked_differently_are_no_seeds(self):
        # The host choice runs one candidate whatever schedule was asked: equal once settled, not seeds.
        sys.path.insert(0, str(HERE))
        from papers.common import Rec, merge_seeds
        recs = []
        for schedule, t in (("sequential", 100.0), ("interleaved", 110.0)):
            d = record("vkfrag", "adaptive", {"choice": "host", "schedule": schedule}, "uniform:4M:p=0.45:seed=7", t)
            d["chosen"] = {"choice": "host", "schedule": "sequential"}
            recs.append(Rec(d, "t"))
        out = merge_seeds(recs)
        self.assertEqual(len(out), 2)
        self.assertEqual([r.case.seed for r in out], ["7", "7"])
        self.assertEqual([r.total for r in out], [100.0, 110.0])


if __name__ == "__main__":
    unittest.main()
