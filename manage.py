#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")
    from django.core.management import execute_from_command_line

    from zeromemory.embedded_db import EmbeddedDatabaseError

    try:
        execute_from_command_line(sys.argv)
    except EmbeddedDatabaseError as exc:
        # An operator problem with a known remedy: say it plainly, without a traceback.
        sys.stderr.write(f"zeromemory: {exc}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
