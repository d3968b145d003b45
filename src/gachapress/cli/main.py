"""The `gachapress` command. A build with nothing to do is answered before the command line's
libraries load (see ``quick``); everything else goes to the application (``app``)."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any


def main() -> None:
    """Run the command; a standard output or error that cannot be written (a closed pipe, a
    full disk) ends it with one plain sentence and exit status 1, never a traceback, whatever
    the command."""
    try:
        try:
            _run()
        finally:
            sys.stdout.flush()  # here, not at exit, where a failure could only be ignored
    except OSError as exc:
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRORS:
            raise
        _stop_writing()
        if exc.errno != errno.EPIPE:  # a reader that went away (`| head`) needs no word
            _say(f"error: cannot write the output: {exc.strerror}")
        raise SystemExit(1) from None


#: What writing to a standard stream may fail with: the reader gone, the disk or quota full.
_OUTPUT_ERRORS = {errno.EPIPE, errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _run() -> None:
    from gachapress.cli.quick import noop_build

    if not noop_build(sys.argv[1:]):
        from gachapress.cli.app import app

        app()


def _stop_writing() -> None:
    """Point standard output at /dev/null, so that nothing left in its buffer is written (and
    fails again) when Python exits."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except OSError:  # standard error is full or gone too: the exit status says it
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())


def __getattr__(name: str) -> Any:
    if name == "app":  # what installs made before ``main`` run as the console script
        from gachapress.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
