from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.choices import Role
from memories.services import membership_set

from ._base import get_project, get_user


class Command(BaseCommand):
    help = (
        "Make USERNAME a member of the project SLUG. Members read the project and write their "
        "own memories in it; maintainers also retire and moderate others' memories. Running it "
        "again changes the role."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("username")
        parser.add_argument("--role", choices=Role.values, default=Role.MEMBER)

    def handle(self, *args: Any, slug: str, username: str, role: str, **options: Any) -> None:
        project = get_project(slug)
        user = get_user(username)
        membership, created = membership_set(
            actor=None, via="manage.py add_member", project=project, user=user, role=role
        )
        verb = "Added" if created else "Updated"
        self.stdout.write(f"{verb} {username} in {project.slug} as {membership.role}")
