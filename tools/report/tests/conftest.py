"""The synthetic quick folder and its report, made once for every paper's tests (the report of five
papers takes seconds); a test that changes the folder works on a copy in its own tmp_path."""

import json
from types import SimpleNamespace

import pytest

pytest.register_assert_rewrite("tests.synthetic")

from .synthetic import make_dir, run  # noqa: E402 (after the rewrite is registered)


@pytest.fixture(scope="session")
def quick(tmp_path_factory):
    """dir: the folder; result: the report's process; report: report.json; md: report.md."""
    folder = tmp_path_factory.mktemp("reproduce") / "quick"
    make_dir(folder)
    result = run(folder)
    report_json, report_md = folder / "report.json", folder / "report.md"
    return SimpleNamespace(
        dir=folder,
        result=result,
        report=json.loads(report_json.read_text()) if report_json.exists() else None,
        md=report_md.read_text() if report_md.exists() else "",
    )
