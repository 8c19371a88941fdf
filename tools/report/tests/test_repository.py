"""Checks of the repository itself, not of the package: the committed results page is what
winnow_report.index makes of docs/results, docs/results stays within its budget, the code names no
dated session folder, docs/ names no path of the machine a run was made on.

Run: /usr/bin/python3 -m pytest tools/report/tests/test_repository.py   (CTest: report.repository)
"""

import re
import subprocess

import pytest

from winnow_report import index

from .synthetic import PACKAGE_ROOT

REPO = PACKAGE_ROOT.parent.parent
RESULTS = REPO / "docs" / "results"
README = REPO / "README.md"
# Where the code lives; a session folder's name there ties the code to one run of the results.
CODE = ["common", "gl", "vulkan", "cuda", "tools", "tests"]
SESSION = re.compile(r"(h100|h200)-20[0-9]{2}-")
# An absolute path of the machine that made a run: /work/…, /root/…, /home/…, /tmp/…, /Users/… starting a
# word (after a space, a quote, a backtick, a bracket, '=', ':' or ','), not inside a URL's path.
MACHINE_PATH = re.compile(r"(?:^|(?<=[\s\"'`(\[=:,]))/(?:work|root|home|tmp|Users)/")


def tracked(*paths):
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--", *paths], capture_output=True, check=True)
    return [REPO / name for name in out.stdout.decode().split("\0") if name]


def test_the_results_page_and_the_readmes_how_fast_are_current():
    if not any(index.is_card(p) for p in RESULTS.iterdir()):
        pytest.skip("docs/results has no <card>/<paper>/report.json yet (the old layout of dated session folders)")
    for path, text in index.make(RESULTS, README).items():
        assert path.read_text() == text, f"{path.relative_to(REPO)} is stale: run {index.COMMAND}"


def test_docs_results_within_its_budget():
    sizes = index.tracked_sizes(RESULTS)
    total = sum(sizes.values())
    largest = ", ".join(f"{name} {index.mb(size)}" for name, size in index.folder_sizes(sizes)[:5])
    assert total <= index.BUDGET_MB * 1e6, (
        f"docs/results holds {index.mb(total)}, over its {index.BUDGET_MB} MB; the largest folders: {largest}"
    )


def test_the_code_names_no_dated_session_folder():
    hits = []
    for path in tracked(*CODE):
        try:
            text = path.read_text()
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # a binary file, or one deleted in the working tree
        for number, line in enumerate(text.splitlines(), 1):
            if SESSION.search(line):
                hits.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not hits, f"{len(hits)} lines name a dated session folder (name the card's folder):\n" + "\n".join(hits)


def test_docs_name_no_machine_path():
    hits = []
    for path in tracked("docs/*.md", "docs/*.json"):
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not hits, f"{len(hits)} lines in docs/ name a path of the machine (make it relative):\n" + "\n".join(hits)


@pytest.mark.parametrize(
    "line, hit",
    [
        ("ran /work/main/build-carry/winnow bench", True),
        ('"command": "/root/.cache/x"', True),
        ("see `/tmp/r/report.md`", True),
        ("/home/user/x at the start", True),
        ("(/Users/me/x)", True),
        ("https://example.org/home/page and docs/work/x", False),
        ("build/tmp/x and a/root/b", False),
        ("/usr/bin/python3 tools/report/reproduce.py", False),
    ],
)
def test_what_counts_as_a_machine_path(line, hit):
    assert bool(MACHINE_PATH.search(line)) == hit


README_LINES = 250  # a page for a user; the narrative lives in docs/


def test_the_readme_stays_a_page_for_a_user():
    lines = README.read_text().count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines, over {README_LINES}: move the narrative to docs/"


def test_ci_runs_the_readmes_test_command():
    quick_start = README.read_text().split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in quick_start.strip().splitlines()]
    assert len(commands) == 2, f"the quick start is two commands, not {commands}"
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert commands[1] in [line.strip() for line in ci], f".ci/run does not run the README's test command {commands[1]}"
