from __future__ import annotations

from argparse import BooleanOptionalAction
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
        parser.add_argument(
            "--review-provisional",
            action=BooleanOptionalAction,
            default=None,
            help="Provisional writes (background captures) wait for a maintainer's approval before they "
            "count (--no-review-provisional turns it off; off for a new project).",
        )

    def handle(
        self,
        *args: Any,
        slug: str,
        name: str,
        secret_policy: str | None,
        review_provisional: bool | None,
        **options: Any,
    ) -> None:
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(f"{slug!r} is not a valid slug: use letters, digits, '-' and '_'.") from None
        if len(slug) > 64:
            raise CommandError("A project slug has at most 64 characters.")
        via = "manage.py create_project"
        project, created = project_create(actor=None, via=via, slug=slug, name=name)
        policies: dict[str, Any] = {}
        if secret_policy is not None:
            policies["secret_policy"] = secret_policy
        if review_provisional is not None:
            policies["review_provisional"] = review_provisional
        project = project_set_policy(actor=None, via=via, project=project, **policies)
        verb = "Created" if created else "Project already exists:"
        review = "reviewed" if project.review_provisional else "counted at once"
        self.stdout.write(
            f"{verb} {project.slug} ({project.name}); secrets: {project.secret_policy}; provisional writes: {review}"
        )
