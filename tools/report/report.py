#!/usr/bin/env python3
"""Runs winnow_report.report from a source checkout (or an installed share/winnow/report): python puts
a script's folder first on its module path, and the package lies beside this file. Same as
`python3 -m winnow_report.report` with tools/report on PYTHONPATH."""

import sys

from winnow_report.report import main

if __name__ == "__main__":
    sys.exit(main())
