#!/usr/bin/env python3
"""web.page: the page (tools/web/page) in headless Chromium makes the same cases as the native build.

Builds and assembles the page with tools/web.sh --check, opens it in Chromium (tests/web/browser.py),
gives it the conformance sample, tests/web/specs.txt's specs and a PGM image chosen through its file
input, runs them, and compares each case's line with the native one (tests/web/corpus_lines.cpp) word
for word: the canonical spec, sizes, checksum, the reference's count and checksum and the verifier's
verdict on it, or a refused spec's message. (The verdicts on spoilt outputs, the rest of each native
line, are web.same_bytes's: the same module under node.) Every case the native build makes must be
verified in the page, and the console must stay free of errors. Then the page's first WebGL 2
algorithm, with its defaults, runs on a few cases through its "run" button: each record verified and
of api webgl, a refused spec refused, and the download holds their records. Screenshots of the page
after each are left in the work folder. Exits 77 with the reason where the browser or emscripten is
missing.
WEB_BUILD is the web build's folder (WORK_DIR/build): CTest gives web.same_bytes's, built once for both.

Usage: page_test.py NATIVE_CORPUS_LINES SOURCE_DIR WORK_DIR [WEB_BUILD]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402 (beside this file)

GPU_CASES = ["uniform:100003:p=0.1", "removal:1000:k=0.999", "finger:64K", "single:1000:at=0", "uniform:10:p=2"]
NATIVE_FIELDS = 9  # spec, canonical spec, n, removals, width, checksum, kept, reference, exact=verdict


def say(text: str) -> None:
    print(f"web.page: {text}", flush=True)


def skip_reason() -> str | None:
    reason = browser.missing()
    if reason:
        return reason
    if not shutil.which("emcmake"):
        return "no emcmake (Debian's emscripten; tools/setup.sh installs it where the distribution has it)"
    acorn = subprocess.run(
        ["node", "-e", 'require("acorn")'],
        env={**os.environ, "NODE_PATH": "/usr/share/nodejs"},
        capture_output=True,
    )
    if acorn.returncode != 0:
        return "node finds no acorn in /usr/share/nodejs (Debian's node-acorn), which emscripten's optimizer needs"
    return None


def write_pgm(path: Path, width: int = 61, height: int = 37) -> None:
    """A binary PGM (P5, 8 bits): a diagonal gradient with a disc, so both thresholds cut it."""
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            v = (x * 255 // (width - 1) + y * 3) % 256
            if (x - 20) ** 2 + (y - 18) ** 2 < 100:
                v = 255 - v
            pixels.append(v)
    path.write_bytes(b"P5\n# winnow web.page\n%d %d\n255\n" % (width, height) + bytes(pixels))


def assemble(source: Path, web_build: Path, page: Path, say) -> bool:
    """The page in `page`, with the web build in `web_build` built where needed (tools/web.sh --check);
    False, with its output printed, when that fails."""
    start = time.monotonic()
    run = subprocess.run(
        [source / "tools/web.sh", "--check", "--build", web_build, "--out", page], capture_output=True, text=True
    )
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        say("tools/web.sh --check failed")
        return False
    say(f"web build and page {time.monotonic() - start:.1f} s")
    return True


def page_line(r: dict) -> str:
    """A page record as the first fields of corpus_lines.cpp's line."""
    if r["status"] == "refused":
        return f"{r['spec']}\trefused\t{r['message']}"
    if r.get("case") is None:
        return f"{r['spec']}\t{r['status']}\t{r.get('message', '')}"
    return (
        f"{r['spec']}\t{r['case']}\tn={r['n']}\tremovals={r['removals']}\twidth={r['width']}"
        f"\tchecksum={r['checksum']}\tkept={r['valid']}\treference={r['reference_checksum']}\texact={r['verified']}"
    )


def native_line(line: str) -> str:
    fields = line.split("\t")
    return line if fields[1] == "refused" else "\t".join(fields[:NATIVE_FIELDS])


def native_lines(program: str, spec_file: Path, cwd: Path) -> list[str]:
    # Exit 1 names a refused conformance case; the page must agree with the lines all the same.
    run = subprocess.run([program, str(spec_file)], cwd=cwd, capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout:
        raise RuntimeError(f"{program} failed ({run.returncode}): {run.stderr}")
    return [native_line(x) for x in run.stdout.splitlines()]


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    program, source, work = str(Path(sys.argv[1]).resolve()), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    web_build = Path(sys.argv[4]).resolve() if len(sys.argv) == 5 else work / "build"
    reason = skip_reason()
    if reason:
        say(f"skipped: {reason}")
        return browser.SKIP
    work.mkdir(parents=True, exist_ok=True)

    if not assemble(source, web_build, work / "page", say):
        return 1

    # The native lines: the conformance sample and specs.txt, then the image's cases (made where the
    # image is, so that both sides name it file:web_page.pgm).
    image = work / "web_page.pgm"
    write_pgm(image)
    image_specs = ["file:web_page.pgm", "file:web_page.pgm:threshold=60"]
    (work / "image_specs.txt").write_text("\n".join(image_specs) + "\n")
    specs = [
        s for s in (source / "tests/web/specs.txt").read_text().splitlines() if s.strip() and not s.startswith("#")
    ]
    expected = native_lines(program, source / "tests/web/specs.txt", work)
    conformance = len(expected) - len(specs)
    expected += native_lines(program, work / "image_specs.txt", work)[conformance:]

    start = time.monotonic()
    query = urllib.parse.urlencode({"preset": "conformance", "cases": "\n".join(specs)})
    with browser.Browser(work / "page", width=1280, height=900) as b:
        b.open(f"index.html?{query}")
        b.wait("winnowReady", timeout=30)
        # The image through the page's file input, as a person choosing it would give it.
        b.driver.find_element("id", "file").send_keys(str(image.resolve()))
        has_image = False
        deadline = time.monotonic() + 10
        while not has_image and time.monotonic() < deadline:  # the page reads the file asynchronously
            has_image = b.script("return document.getElementById('specs').value.endsWith(arguments[0])", image_specs[0])
            time.sleep(0.05)
        b.script("document.getElementById('specs').value += '\\n' + arguments[0]", image_specs[1])
        b.driver.find_element("id", "make").click()
        result = b.wait("winnowResult", timeout=60)
        b.screenshot(work / "page.png")
        # The first WebGL 2 algorithm with its defaults on a few cases, through the page's "run".
        b.script(
            "document.getElementById('specs').value = arguments[0]; window.winnowResult = undefined;",
            "\n".join(GPU_CASES),
        )
        engine = b.script("return !document.getElementById('engine').disabled")
        runs = None
        if engine:
            b.driver.find_element("id", "run").click()
            runs = b.wait("winnowResult", timeout=120)
            b.screenshot(work / "page-runs.png")
            (work / "webgl.jsonl").write_text(b.script("return window.winnowDownloadText()"))
        errors = b.console_errors()
    say(
        f"the page made {len(result['records'])} cases in {result['elapsed_ms'] / 1000:.2f} s ({time.monotonic() - start:.1f} s with the browser)"
    )
    say(f"environment: {result['environment']}")

    failures = []
    if not has_image:
        failures.append("the file input gave no file:web_page.pgm case")
    got = [page_line(r) for r in result["records"]]
    (work / "page.lines").write_text("\n".join(got) + "\n")
    (work / "native.lines").write_text("\n".join(expected) + "\n")
    if len(got) != len(expected):
        failures.append(f"{len(got)} cases in the page, {len(expected)} natively")
    differ = [(e, g) for e, g in zip(expected, got, strict=False) if e != g]
    for e, g in differ[:10]:
        failures.append(f"native: {e}\n  page:   {g}")
    if len(differ) > 10:
        failures.append(f"… {len(differ) - 10} more lines differ (all in {work}/page.lines and native.lines)")
    unverified = [r["spec"] for r in result["records"] if r["status"] not in ("ok", "refused")]
    if unverified:
        failures.append(f"not verified in the page: {', '.join(unverified)}")
    if not engine:
        failures.append(f"the page's WebGL 2 algorithms are disabled: {result['environment']}")
    elif runs:
        say(f"{runs['summary']} in {runs['elapsed_ms'] / 1000:.2f} s")
        for r in runs["runs"]:
            rec = r["record"] or {}
            expected = "refused" if r["spec"] == GPU_CASES[-1] else "ok"
            if r["status"] != expected or (expected == "ok" and rec.get("api") != "webgl"):
                failures.append(f"{r['algorithm']} on {r['spec']}: {r['status']} {r['message']}")
        # What Download hands out: the records as the module wrote them, one a line.
        downloaded = [json.loads(x) for x in (work / "webgl.jsonl").read_text().splitlines()]
        if downloaded != [r["record"] for r in runs["runs"] if r["record"]]:
            failures.append(f"the download ({work / 'webgl.jsonl'}) is not the runs' records")
    failures += [f"console: {e}" for e in errors]
    refused = sum(r["status"] == "refused" for r in result["records"])
    if failures:
        for f in failures:
            say(f)
        say(f"FAILED ({len(differ)} of {len(expected)} lines differ); screenshot {work / 'page.png'}")
        return 1
    say(
        f"{len(got)} lines the same in the page as natively ({len(got) - refused} cases verified, "
        f"{refused} refused with the native message); screenshot {work / 'page.png'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
