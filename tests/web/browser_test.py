#!/usr/bin/env python3
"""web.browser: tests/web/browser.py itself, on small pages of its own in headless Chromium: a result
comes back as JSON (a page's text as UTF-8); window.winnowError, a timeout and a page that does not
load fail in time, with their reason and the page's console errors; .wasm is served as
application/wasm (instantiateStreaming needs it); WebGL 2 is there; screenshots are written. Skipped,
with the reason, without chromium, chromium-driver or selenium.
"""

from __future__ import annotations

import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402 (beside this file)

# The smallest module: (module (func (export "answer") (result i32) i32.const 42))
WASM = bytes.fromhex("0061736d01000000 0105016000017f 03020100 070a0106616e737765720000 0a06010400412a0b")

PAGES = {
    "result.html": "<script>setTimeout(() => { window.winnowResult = {n: 3, text: 'é'}; }, 200);</script>",
    "error.html": "<script>console.error('winnow test: about to fail'); window.winnowError = 'no module';</script>",
    "silent.html": "<script>console.error('winnow test: nothing comes');</script>",
    "stuck.html": "<script>const end = Date.now() + 3000; while (Date.now() < end);</script>",
    "wasm.html": """<script>
      WebAssembly.instantiateStreaming(fetch("answer.wasm"))
        .then((r) => { window.winnowResult = {answer: r.instance.exports.answer()}; })
        .catch((e) => { window.winnowError = String(e); });
    </script>""",
    "webgl.html": """<script>
      const gl = document.createElement("canvas").getContext("webgl2");
      window.winnowResult = {version: gl ? gl.getParameter(gl.VERSION) : null};
    </script>""",
}


@browser.requires_browser
class BrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.folder = tempfile.TemporaryDirectory(prefix="winnow-browser-")
        root = Path(cls.folder.name)
        for name, body in PAGES.items():
            (root / name).write_text(f'<!doctype html><html><head><link rel="icon" href="data:,"></head>{body}</html>')
        (root / "answer.wasm").write_bytes(WASM)
        cls.b = browser.Browser(root)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.b.close()
        cls.folder.cleanup()

    def test_a_result_comes_back_as_json(self) -> None:
        self.assertEqual(self.b.run("result.html", timeout=10), {"n": 3, "text": "é"})

    def test_a_page_error_fails_at_once_with_its_console(self) -> None:
        start = time.monotonic()
        with self.assertRaises(browser.PageError) as caught:
            self.b.run("error.html", timeout=20)
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("the page failed: no module", str(caught.exception))
        self.assertIn("winnow test: about to fail", str(caught.exception))

    def test_no_result_is_a_timeout_not_a_hang(self) -> None:
        start = time.monotonic()
        with self.assertRaises(browser.PageError) as caught:
            self.b.run("silent.html", timeout=1)
        self.assertLess(time.monotonic() - start, 5)
        self.assertIn("no window.winnowResult after 1 s", str(caught.exception))
        self.assertIn("winnow test: nothing comes", str(caught.exception))
        self.assertNotIn("about to fail", str(caught.exception))  # another page's console

    def test_a_page_that_does_not_load_fails_in_time(self) -> None:
        self.b.driver.set_page_load_timeout(1)
        try:
            with self.assertRaises(browser.PageError) as caught:
                self.b.open("stuck.html")
        finally:
            self.b.driver.set_page_load_timeout(self.b._load_timeout)
        self.assertIn("stuck.html did not load", str(caught.exception))

    def test_wasm_is_served_as_application_wasm(self) -> None:
        self.assertEqual(self.b.run("wasm.html", timeout=10), {"answer": 42})

    def test_webgl_2_is_there(self) -> None:
        self.assertIn("WebGL 2.0", self.b.run("webgl.html", timeout=10)["version"])

    def test_a_screenshot_is_a_png(self) -> None:
        self.b.run("result.html", timeout=10)
        path = Path(self.folder.name) / "shots" / "result.png"
        self.b.screenshot(path)
        self.assertEqual(path.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    reason = browser.missing()
    if reason:  # CTest's skip (77) rather than unittest's, which exits 0
        print(f"web.browser: skipped: {reason}")
        sys.exit(browser.SKIP)
    unittest.main()
