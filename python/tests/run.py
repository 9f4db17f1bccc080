# SPDX-License-Identifier: MIT
"""Runs the pytest suite with this interpreter (the one the package was built for); exits 77,
which Meson reports as skipped, when pytest is not installed for it.
usage: python run.py TESTS_DIR [pytest args...]"""
import sys

try:
    import pytest
except ImportError:
    print(f"pytest is not installed for {sys.executable} (Debian: python3-pytest); Python tests skipped")
    sys.exit(77)

sys.exit(pytest.main([sys.argv[1], "-p", "no:cacheprovider", "-q", *sys.argv[2:]]))
