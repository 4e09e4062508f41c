"""Reading what a child process writes to a terminal (a pty): the progress bar of ``mjspec
simulate`` shows only there."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess


def read_until(fd: int, pattern: bytes) -> bytes:
    """Read the terminal ``fd`` until ``pattern`` (a regular expression) shows."""
    seen = b""
    while not re.search(pattern, seen):
        chunk = _read(fd, 1024)
        assert chunk, f"the output ended before {pattern!r} showed: {seen!r}"
        seen += chunk
    return seen


def read_rest(fd: int) -> bytes:
    """Everything left, until the other end closes."""
    rest = b""
    while chunk := _read(fd, 4096):
        rest += chunk
    return rest


def _read(fd: int, size: int) -> bytes:
    try:
        return os.read(fd, size)
    except OSError:  # the other end closed: the process is gone
        return b""


def start_on_terminal(args: list[str], cwd: object) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``args`` with a terminal (a new pty) as its stderr, its stdout a pipe, in a session
    of its own (so a signal can reach its whole group) and with Ctrl-C at its default (a test
    run started in the background of a non-interactive shell inherits SIGINT ignored, and a
    child would keep ignoring it). Returns the process and the terminal's reading end."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=cwd,  # type: ignore[arg-type]
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(slave)
    return proc, master
