"""The evaluation tooling's command line: ``python -m evaluation <command> [ARGS]``.

``./zm eval ARGS`` runs ``eval_hygiene ARGS`` and ``./zm train ARGS`` runs ``train_judge ARGS``.
The commands are Django management commands run here by hand, not through an installed app: the
server's settings (INSTALLED_APPS) name the product only, so nothing the server starts (gunicorn,
the task worker, the sender) ever imports this package, while the tooling uses the product (its
settings, models, judge and embedder) the same way ``manage.py`` would.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

COMMANDS = ("eval_hygiene", "train_judge")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write(f"usage: python -m evaluation {{{','.join(COMMANDS)}}} [ARGS]\n")
        return 64
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")
    import django

    from zeromemory import embedded_db

    try:
        django.setup()
        command = import_module(f"evaluation.commands.{argv[0]}").Command()
        # As manage.py would: argv[0] the program, argv[1] the command (the usage line says
        # "python -m evaluation <command>"); a CommandError prints its message and exits 1.
        command.run_from_argv(["python -m evaluation", *argv])
    except embedded_db.EmbeddedDatabaseError as exc:
        # As manage.py: an operator problem with a known remedy, said plainly without a traceback.
        sys.stderr.write(f"zeromemory: {exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
