from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_slug

from memories.choices import SecretPolicy
from memories.services import project_create, project_set_policy


class Command(BaseCommand):
    help = (
        "Create a project (a team space) identified by SLUG. Running it again for an existing "
        "slug changes nothing, except the name when --name is given and the policies given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="Letters, digits, hyphens and underscores; at most 64.")
        parser.add_argument("--name", default="", help="A human-readable name (default: the slug).")
        parser.add_argument(
            "--secret-policy",
            choices=SecretPolicy.values,
            help="What a write holding a credential gets: redact (the default for a new project) or block.",
        )

    def handle(self, *args: Any, slug: str, name: str, secret_policy: str | None, **options: Any) -> None:
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(f"{slug!r} is not a valid slug: use letters, digits, '-' and '_'.") from None
        if len(slug) > 64:
            raise CommandError("A project slug has at most 64 characters.")
        via = "manage.py create_project"
        project, created = project_create(actor=None, via=via, slug=slug, name=name)
        if secret_policy is not None:
            project = project_set_policy(actor=None, via=via, project=project, secret_policy=secret_policy)
        verb = "Created" if created else "Project already exists:"
        self.stdout.write(f"{verb} {project.slug} ({project.name}); secrets: {project.secret_policy}")
