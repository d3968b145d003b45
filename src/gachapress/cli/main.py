"""The `gachapress` command. A build with nothing to do is answered before the command line's
libraries load (see ``quick``); everything else goes to the application (``app``)."""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    from gachapress.cli.quick import noop_build

    if not noop_build(sys.argv[1:]):
        from gachapress.cli.app import app

        app()


def __getattr__(name: str) -> Any:
    if name == "app":  # what installs made before ``main`` run as the console script
        from gachapress.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
