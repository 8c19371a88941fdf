#!/usr/bin/env python3
"""web.trace: the page's trace (tools/web: WebGL 2 in headless Chromium) is `winnow trace`'s on GL.

For each algorithm and parameters below, on one case: `winnow trace --algo gl/NAME` natively (Mesa's
llvmpipe in CI) writes trace.json and a PNG a pass; the page, opened with ?trace=webgl/NAME, traces the
same case through the module (the same plan, shaders, trace() and picture code, compiled to wasm) on
SwiftShader. Every pass must agree: its number, phase, name, shader, size, content, block, value
range and words (trace.json's words_fnv1a: word for word), and its picture: the texels where
trace.json says, pixel for pixel (the page's PNG of it against the native file; the title above them names
the pass's time). A screenshot of the page's last trace is left in the work
folder. Exits 77 with the reason where the browser, emscripten or a GL context is missing.

Usage: trace_test.py WINNOW SOURCE_DIR WORK_DIR [WEB_BUILD]
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402 (beside this file)
import page_test  # noqa: E402 (its skip reasons: the page's build needs what it needs)

CASE = "uniform:5000:p=0.4"  # not a power of two: the layout's padding is drawn too
TRACES = [
    ("horn", "block=64"),
    ("jj", "block=32,concat=rects"),
    ("rlz", "concat=lines"),
    ("bt", "block=256,scan=blelloch"),
    ("histopyramid", ""),
]
COMPARED = ("number", "phase", "name", "shader", "width", "height", "content", "block", "min", "max", "words_fnv1a")


def say(text: str) -> None:
    print(f"web.trace: {text}", flush=True)


def texels(png: bytes, p: dict) -> bytes:
    """The RGB bytes of the picture's texels (trace.json's image rectangle): the title above them names
    the pass's time, which differs between any two runs (and so may the picture's width)."""
    from PIL import Image  # Debian's python3-pil, which python3-matplotlib brings

    picture = Image.open(io.BytesIO(png)).convert("RGB")
    x, y, scale = p["image"]["x"], p["image"]["y"], p["image"]["scale"]
    return picture.crop((x, y, x + p["width"] * scale, y + p["height"] * scale)).tobytes()


def native_trace(winnow: str, name: str, params: str, out: Path) -> dict | str:
    command = [winnow, "trace", "--algo", f"gl/{name}", "--case", CASE, "--out", str(out)]
    for p in filter(None, params.split(",")):
        command += ["--param", p]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()}"
    return json.loads((out / "trace.json").read_text())


def compare(name: str, native: dict, page: dict, out: Path, png_of) -> list[str]:
    failures = []
    if len(native["passes"]) != len(page["passes"]):
        return [f"{name}: {len(page['passes'])} passes in the page, {len(native['passes'])} natively"]
    for i, (n, p) in enumerate(zip(native["passes"], page["passes"], strict=True)):
        differ = [k for k in COMPARED if n[k] != p[k]]
        if differ:
            failures.append(f"{name} pass {i} ({n['name']}): {', '.join(f'{k} {n[k]} ≠ {p[k]}' for k in differ)}")
            continue
        png = base64.b64decode(png_of(i))
        if n["image"] != p["image"] or texels(png, p) != texels((out / n["file"]).read_bytes(), n):
            (out / f"page-{n['file']}").write_bytes(png)
            failures.append(f"{name} pass {i} ({n['name']}): the picture differs (page-{n['file']} beside it)")
    return failures


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    winnow, source, work = str(Path(sys.argv[1]).resolve()), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    web_build = Path(sys.argv[4]).resolve() if len(sys.argv) == 5 else work / "build"
    reason = page_test.skip_reason()
    try:
        import PIL  # noqa: F401
    except ImportError:
        reason = reason or "no PIL for python3 (Debian's python3-pil) to read the pictures"
    if reason:
        say(f"skipped: {reason}")
        return browser.SKIP
    work.mkdir(parents=True, exist_ok=True)
    if not page_test.assemble(source, web_build, work / "page", say):
        return 1

    natives = {}
    for name, params in TRACES:
        natives[name] = native_trace(winnow, name, params, work / "native" / name)
        if isinstance(natives[name], str):
            if "cannot run here" in natives[name]:  # no GL context on this machine: the native side is missing
                say(f"skipped: {natives[name]}")
                return browser.SKIP
            say(natives[name])
            return 1

    failures = []
    start = time.monotonic()
    with browser.Browser(work / "page", width=1280, height=900) as b:
        for name, params in TRACES:
            query = urllib.parse.urlencode({"cases": CASE, "trace": f"webgl/{name}", "params": params})
            try:
                result = b.run(f"index.html?{query}", timeout=120)
            except browser.PageError as e:
                failures.append(f"{name}: {e}")
                continue
            if not result.get("trace"):
                failures.append(f"{name}: the page refused the trace: {result.get('message')}")
                continue
            native = natives[name]
            failures += compare(
                name,
                native,
                result["trace"],
                work / "native" / name,
                lambda i: b.script("return window.winnowTracePng(arguments[0])", i),
            )
            say(f"{name} {params or '(defaults)'}: {len(native['passes'])} passes compared")
        b.script("window.scrollTo(0, 0)")  # traceFirst scrolled to the passes
        b.screenshot(work / "page-trace.png")
        failures += [f"console: {e}" for e in b.console_errors()]
    say(f"{len(TRACES)} traces in the page in {time.monotonic() - start:.1f} s; screenshot {work / 'page-trace.png'}")
    for f in failures:
        say(f)
    if failures:
        say("FAILED")
        return 1
    say("every pass the same words and picture as `winnow trace` on GL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
