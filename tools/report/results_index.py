#!/usr/bin/env python3
"""Runs winnow_report.index from a source checkout: python puts a script's folder first on its module
path, and the package lies beside this file. Same as `python3 -m winnow_report.index` with
tools/report on PYTHONPATH."""

import sys

from winnow_report.index import main

if __name__ == "__main__":
    sys.exit(main())
