"""Django's PostgreSQL backend, joining the embedded server on a process's first connection.

Settings only say where the server is; nothing starts at import. The first connection a process
opens starts the server, or registers the process with the one already running
(``zeromemory.embedded_db``), so commands that never touch the database (``check``, ``help``,
the schema export) leave it alone. Server processes join at start instead (``zeromemory.wsgi``,
``asgi``, ``manage.py runserver``), so a broken data folder stops them before any request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import OperationalError
from django.db.backends.postgresql import base

from zeromemory import embedded_db


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def data_dir(self) -> Path:
        return Path(self.settings_dict["EMBEDDED_DATA_DIR"])

    def server_running(self) -> bool:
        """Whether a query would find the server up, without starting it."""
        return embedded_db.EmbeddedServer(self.data_dir).is_running()

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if embedded_db.starts_on_demand():
            embedded_db.join(self.data_dir)
        elif not self.server_running():
            raise OperationalError(
                f"The embedded database in {self.data_dir} is not running; this command leaves it so."
            )
        return super().get_new_connection(conn_params)
