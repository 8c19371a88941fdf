#!/usr/bin/env python3
"""Runs winnow_report.held_back_images from a source checkout (or an installed share/winnow/report): python puts
a script's folder first on its module path, and the package lies beside this file. Same as
`python3 -m winnow_report.held_back_images` with tools/report on PYTHONPATH."""

import sys

from winnow_report.held_back_images import main

if __name__ == "__main__":
    sys.exit(main())
