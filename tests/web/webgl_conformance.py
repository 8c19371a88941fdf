#!/usr/bin/env python3
"""web.webgl_conformance (issue 59): the webgl path's conformance sample in a real browser.

Builds the web build (WINNOW_WEB, Debian's emscripten) into WORK/build, serves tests/web/pages/
webgl_conformance.html beside its winnow_web.js and opens it in headless Chromium on SwiftShader
(browser.py): every webgl algorithm (horn, jj, rlz, bt, histopyramid, adaptive) with its defaults on
every conformance case (uniform:4M among them: about 19 s of the run on SwiftShader), then every value of
each parameter's sweep on two cases, then every algorithm on three cases timed by the timer queries
(EXT_disjoint_timer_query_webgl2, asked for by name), whose results the module waits for by returning
to the browser (Asyncify). Every record must be verified, be one JSON line of the schema
`winnow bench` writes, and name api webgl and the timer; with WINNOW (the native CLI), `winnow compare`
must read them all (WORK/records/webgl.jsonl against itself, a record per algorithm, parameters and case). Exit 0, 1 (a record failed: each named), or
77 (skipped: no emcmake, node, node-acorn, chromium, chromium-driver or selenium).

Usage: webgl_conformance.py SOURCE_DIR WORK_DIR [WINNOW]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402

SWEEP_CASES = "uniform:100003:p=0.5;removal:1000:k=0.999"
# The timer queries (EXT_disjoint_timer_query_webgl2's elapsed-time queries on SwiftShader, asked for by
# name: SwiftShader's own choice is glFinish, docs/driver-quirks.md), whose results the module waits for
# by returning to the browser: every algorithm on these, each record verified and timed by the queries.
QUERY_CASES = "uniform:100003:p=0.5;bunny:64K;removal:1000:k=0.999"


def skip(why: str) -> int:
    print(f"web.webgl_conformance: skipped: {why}")
    return browser.SKIP


def build(src: Path, work: Path) -> Path | None:
    """The web build's winnow_web.js, built into work/build; None (after printing the log) when it fails."""
    env = {k: v for k, v in os.environ.items() if k not in ("CXXFLAGS", "LDFLAGS")}  # the native build's
    log = work / "build.log"
    with log.open("w") as out:
        ok = (
            subprocess.run(
                ["emcmake", "cmake", "-S", str(src), "-B", str(work / "build"), "-G", "Ninja", "-DWINNOW_WEB=ON"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                check=False,
            ).returncode
            == 0
            and subprocess.run(
                ["cmake", "--build", str(work / "build"), "--parallel", "2", "--target", "winnow_web"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                check=False,
            ).returncode
            == 0
        )
    if not ok:
        print(log.read_text())
        return None
    return work / "build" / "tools" / "web" / "winnow_web.js"


def conformance_cases(module: Path) -> list[str]:
    script = "require(process.argv[1])().then((m) => console.log(m.UTF8ToString(m._winnow_conformance_cases())))"
    out = subprocess.run(["node", "-e", script, str(module)], capture_output=True, text=True, check=True).stdout
    return [c for c in out.split() if c]


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    src, work = Path(argv[1]).resolve(), Path(argv[2]).resolve()
    if not shutil.which("emcmake"):
        return skip("no emcmake (Debian's emscripten)")
    if not shutil.which("node"):
        return skip("no node (Debian's nodejs)")
    if (
        subprocess.run(
            ["node", "-e", 'require("acorn")'],
            env={**os.environ, "NODE_PATH": "/usr/share/nodejs"},
            capture_output=True,
            check=False,
        ).returncode
        != 0
    ):
        return skip("node finds no acorn in /usr/share/nodejs (Debian's node-acorn)")
    if reason := browser.missing():
        return skip(reason)

    work.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    module = build(src, work)
    if module is None:
        print("web.webgl_conformance: the web build failed")
        return 1
    print(f"web.webgl_conformance: web build {time.monotonic() - start:.0f} s")

    served = work / "served"
    shutil.rmtree(served, ignore_errors=True)
    served.mkdir()
    shutil.copy(src / "tests" / "web" / "pages" / "webgl_conformance.html", served)
    shutil.copy(module, served)
    cases = conformance_cases(module)
    pages = [
        f"webgl_conformance.html?cases={';'.join(cases)}",
        f"webgl_conformance.html?sweep=1&cases={SWEEP_CASES}",
        f"webgl_conformance.html?timer=queries&reps=3&cases={QUERY_CASES}",
    ]

    failed = total = 0
    lines, seen = [], set()
    start = time.monotonic()
    with browser.Browser(served) as b:
        for page in pages:
            try:
                result = b.run(page, timeout=900)
            except browser.PageError as e:
                print(f"web.webgl_conformance: {page}: {e}")
                return 1
            for r in result["records"]:
                total += 1
                why = "" if r["verified"] else r["message"] or "not verified"
                if not why:
                    rec = json.loads(r["record"])
                    # The sweep's page runs the defaults on its cases again: compare matches one to one.
                    key = (rec["algorithm"], json.dumps(rec["params"], sort_keys=True), rec["case"])
                    if key not in seen:
                        seen.add(key)
                        lines.append(r["record"])
                    if rec["api"] != "webgl" or rec["algorithm"] != r["algorithm"] or not rec["timer"]:
                        why = f"a record of api {rec['api']}, algorithm {rec['algorithm']}, timer '{rec['timer']}'"
                    elif "timer=queries" in page and not rec["timer"].startswith("GL_TIME"):
                        why = f"timed by '{rec['timer']}', not the timer queries asked for"
                if why:
                    failed += 1
                    print(f"FAILED {r['algorithm']} {r['params'] or '(defaults)'} {r['spec']}: {why}")
        device = result["device"]
    print(
        f"web.webgl_conformance: {total - failed} of {total} records verified through WebGL 2 in "
        f"{time.monotonic() - start:.0f} s on {device}"
    )
    if len(argv) == 4 and lines:
        records = work / "records"
        shutil.rmtree(records, ignore_errors=True)
        records.mkdir()
        (records / "webgl.jsonl").write_text("\n".join(lines) + "\n")
        compare = subprocess.run(
            [argv[3], "compare", str(records), str(records)], capture_output=True, text=True, check=False
        )
        rows = sum(1 for line in compare.stdout.splitlines() if line.startswith("webgl/"))
        if compare.returncode != 0 or rows != len(lines):
            print(compare.stdout[-4000:] + compare.stderr[-4000:])
            print(
                f"web.webgl_conformance: winnow compare read {rows} of {len(lines)} records (exit {compare.returncode})"
            )
            return 1
        print(f"web.webgl_conformance: winnow compare reads all {rows} records")
    return 1 if failed or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
