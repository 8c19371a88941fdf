#!/usr/bin/env python3
"""A page in headless Chromium (issue 59): Debian's `chromium`, driven by Selenium (python3-selenium)
through `chromium-driver`; no browser is downloaded.

Serves a folder over HTTP on 127.0.0.1 (a free port; .wasm as application/wasm), opens a page in it,
waits until the page sets a result object (window.winnowResult unless told otherwise) and returns it,
parsed from JSON. A page that sets window.winnowError instead fails at once with that text; one that
sets neither in time fails with the timeout and the console's errors, never hangs. WebGL 2 comes from
SwiftShader (ANGLE's CPU renderer: `--use-angle=swiftshader --enable-unsafe-swiftshader`).

    import browser
    reason = browser.missing()           # None, or why the browser cannot run here (tests skip;
                                         # @browser.requires_browser skips a unittest with it)
    with browser.Browser("served/") as b:
        result = b.run("index.html?cases=uniform:1K", timeout=30)
        b.screenshot("page.png")
        print(b.console_errors())

CLI: browser.py FOLDER [PAGE] [--result NAME] [--timeout S] [--screenshot PNG] [--out JSON]
prints the result (JSON) and the console's errors; exits 0, 1 (no result, an error, console errors
with --strict), 2 (usage) or 77 (no chromium, chromium-driver or selenium: the reason on stderr).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

SKIP = 77  # CTest's SKIP_RETURN_CODE in tests/web

CHROMIUM = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser")  # the binary before Debian's wrapper
DRIVER = ("chromedriver", "/usr/lib/chromium/chromedriver")
FLAGS = (
    "--headless=new",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-dev-shm-usage",  # containers' /dev/shm is small
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",  # WebGL 2 on SwiftShader; Chromium 156 wants it said
    "--ignore-gpu-blocklist",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--hide-scrollbars",
)


def _find(names: tuple[str, ...]) -> str | None:
    for name in names:
        path = name if os.path.isabs(name) else shutil.which(name)
        if path and os.access(path, os.X_OK):
            return path
    return None


def missing() -> str | None:
    """Why the browser cannot run here (a sentence naming the Debian package), or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return f"no selenium in {sys.executable} (Debian's python3-selenium, for /usr/bin/python3)"
    if not _find(CHROMIUM):
        return "no chromium (Debian's chromium)"
    if not _find(DRIVER):
        return "no chromedriver (Debian's chromium-driver)"
    return None


def requires_browser(test):
    """A unittest decorator: the test (or class) skipped, with the reason, where missing() says so."""
    import unittest

    reason = missing()
    return unittest.skip(reason)(test) if reason else test


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".html": "text/html; charset=utf-8",  # a page without <meta charset> reads as UTF-8 too
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json; charset=utf-8",
        ".jsonl": "application/jsonl",
        ".pgm": "image/x-portable-graymap",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a rebuilt module is the one loaded
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet; failures show in the page


class Server:
    """`folder` served on 127.0.0.1 at a free port, in a thread, until close()."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise FileNotFoundError(f"browser.py: no folder {folder} to serve")
        handler = functools.partial(_Handler, directory=str(folder))
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class PageError(RuntimeError):
    """The page set no result in time, or set window.winnowError; the message says which, with the
    console's errors."""


class Browser:
    """Headless Chromium on a served folder. A context manager: closes the browser and the server."""

    def __init__(
        self, folder: str | os.PathLike[str], width: int = 1280, height: int = 900, load_timeout: float = 60.0
    ) -> None:
        """`load_timeout`: seconds a page may take to load (its scripts run) before open() fails."""
        reason = missing()
        if reason:
            raise RuntimeError(f"browser.py: {reason}")
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.server = Server(folder)
        options = webdriver.ChromeOptions()
        options.binary_location = _find(CHROMIUM)
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            # An explicit driver: Selenium's own manager (which downloads drivers) never runs.
            self.driver = webdriver.Chrome(service=Service(executable_path=_find(DRIVER)), options=options)
        except Exception:
            self.server.close()
            raise
        self._load_timeout = load_timeout
        self.driver.set_page_load_timeout(load_timeout)  # Selenium's own is 300 s
        self._console: list[dict] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.server.close()

    def open(self, page: str = "index.html") -> None:
        """Loads `page` (a path in the folder, with a query if wanted); PageError if it does not load in
        time. The console starts afresh."""
        self.driver.get_log("browser")  # the last page's entries, dropped
        self._console = []
        from selenium.common.exceptions import TimeoutException

        try:
            self.driver.get(self.server.url + page.lstrip("/"))
        except TimeoutException as e:
            raise PageError(f"{page} did not load in {self._load_timeout:g} s{self._errors_text()}") from e

    def script(self, js: str, *args: object) -> object:
        """Runs `js` (a function body: `return …`) in the page."""
        return self.driver.execute_script(js, *args)

    def wait(self, name: str = "winnowResult", timeout: float = 60.0) -> object:
        """The page's window[name], parsed from JSON, once set. Raises PageError on window.winnowError
        or when `timeout` seconds pass without it."""
        deadline = time.monotonic() + timeout
        probe = (
            "const r = window[arguments[0]], e = window.winnowError;"
            "return [r === undefined ? null : JSON.stringify(r), e === undefined ? null : String(e)];"
        )
        while True:
            result, error = self.driver.execute_script(probe, name)
            if error is not None:
                raise PageError(f"the page failed: {error}{self._errors_text()}")
            if result is not None:
                return json.loads(result)
            if time.monotonic() > deadline:
                raise PageError(f"no window.{name} after {timeout:g} s{self._errors_text()}")
            time.sleep(0.1)

    def run(self, page: str = "index.html", name: str = "winnowResult", timeout: float = 60.0) -> object:
        """open(page), then wait(name, timeout)."""
        self.open(page)
        return self.wait(name, timeout)

    def screenshot(self, path: str | os.PathLike[str], full_page: bool = True) -> None:
        """A PNG of the window; with full_page, the window first grown to the page's height."""
        if full_page:
            size = self.driver.get_window_size()
            height = self.script("return Math.ceil(document.documentElement.scrollHeight)")
            if isinstance(height, int | float) and height > size["height"]:
                self.driver.set_window_size(size["width"], min(int(height) + 100, 8000))
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if not self.driver.save_screenshot(str(path)):
            raise RuntimeError(f"browser.py: no screenshot written to {path}")

    def console(self) -> list[dict]:
        """The page's console entries since open() ({level, message}); the driver hands each out once,
        kept here."""
        self._console += [{"level": e["level"], "message": e["message"]} for e in self.driver.get_log("browser")]
        return self._console

    def console_errors(self) -> list[str]:
        """The page's console errors and uncaught exceptions (level SEVERE) since open()."""
        return [e["message"] for e in self.console() if e["level"] == "SEVERE"]

    def _errors_text(self) -> str:
        errors = self.console_errors()
        return "".join(f"\n  console: {e}" for e in errors) if errors else "\n  (no console errors)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Open a page of a served folder in headless Chromium.")
    parser.add_argument("folder", help="the folder to serve")
    parser.add_argument("page", nargs="?", default="index.html", help="the page and query (index.html)")
    parser.add_argument("--result", default="winnowResult", help="the window property to wait for")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for it (60)")
    parser.add_argument("--screenshot", help="a PNG of the page, once the result is there")
    parser.add_argument("--out", help="write the result here (JSON) instead of stdout")
    parser.add_argument("--strict", action="store_true", help="console errors fail the run")
    args = parser.parse_args(argv)
    reason = missing()
    if reason:
        print(f"browser.py: skipped: {reason}", file=sys.stderr)
        return SKIP
    with Browser(args.folder) as b:
        try:
            result = b.run(args.page, args.result, args.timeout)
        except PageError as e:
            print(f"browser.py: {args.page}: {e}", file=sys.stderr)
            return 1
        finally:
            if args.screenshot:
                b.screenshot(args.screenshot)
        text = json.dumps(result, indent=1)
        if args.out:
            Path(args.out).write_text(text + "\n")
        else:
            print(text)
        errors = b.console_errors()
        for e in errors:
            print(f"browser.py: console: {e}", file=sys.stderr)
    return 1 if errors and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
