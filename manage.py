#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")
    from django.core.management import execute_from_command_line

    from zeromemory import embedded_db

    command = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        if command == "makemigrations":
            # Its migration-history check reads the database if one is up and warns otherwise:
            # writing migrations is no reason to start a server.
            embedded_db.start_on_demand(False)
        elif command == "runserver":
            # The autoreloader's parent never queries, but holds the server across its children's
            # restarts, so that a code change does not stop and start PostgreSQL.
            import django

            django.setup()
            embedded_db.join_configured_server()
        execute_from_command_line(sys.argv)
    except embedded_db.EmbeddedDatabaseError as exc:
        # An operator problem with a known remedy: say it plainly, without a traceback.
        sys.stderr.write(f"zeromemory: {exc}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
