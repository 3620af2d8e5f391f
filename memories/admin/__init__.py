"""The admin console of memories, one module per family; importing the package registers them all
(Django's admin autodiscovery imports ``memories.admin``):

* ``memory`` — the dashboard feed and each memory's page (SPEC R-A1, R-A2);
* ``accounts`` — projects and their members, credentials, the account audit log;
* ``webhooks`` — a project's webhook endpoints and deliveries, for its maintainers.
"""

from memories.admin import accounts, memory, webhooks

__all__ = ["accounts", "memory", "webhooks"]
