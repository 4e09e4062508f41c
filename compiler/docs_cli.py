"""Commands about rule documents and profiles: ``diff`` and ``new`` (filled in by the docs work)."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any) -> None:
    """Register this module's subcommands on the ``mjspec`` parser."""
    del sub
