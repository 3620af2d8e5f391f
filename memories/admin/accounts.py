"""The admin console for accounts: projects and their members, credentials (tokens), and the
account audit log. Changes go through memories.services' account verbs, audited as the
commands' are."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from memories import services
from memories.choices import SecretPolicy
from memories.models import (
    AccountEvent,
    Credential,
    Membership,
    Project,
)


class MembershipInline(admin.TabularInline[Membership, Project]):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class ProjectForm(forms.ModelForm[Project]):
    # Optional in the posted form: a client that does not know the policy keeps the default.
    secret_policy = forms.ChoiceField(
        choices=SecretPolicy.choices,
        required=False,
        initial=SecretPolicy.REDACT,
        help_text="What a write holding a credential (an API key, a private key, a password in a URL…) gets.",
    )

    class Meta:
        model = Project
        fields = ["slug", "name", "secret_policy", "review_provisional"]

    def clean_secret_policy(self) -> str:
        chosen = self.cleaned_data.get("secret_policy")
        if chosen:
            return str(chosen)
        return self.instance.secret_policy if self.instance.pk else SecretPolicy.REDACT


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin[Project]):
    """Projects and their members, changed through the account services so that every change
    is audited (AccountEvent) exactly as the commands' changes are."""

    form = ProjectForm
    list_display = ["slug", "name", "secret_policy", "review_provisional", "created_at"]
    search_fields = ["slug", "name"]
    fields = ["slug", "name", "secret_policy", "review_provisional", "created_at"]
    inlines = [MembershipInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Project | None = None) -> list[str]:
        # Agents name a project by its slug (API, MCP, scripts): fixed once created.
        return ["slug", "created_at"] if obj is not None else ["created_at"]

    def save_model(self, request: HttpRequest, obj: Project, form: Any, change: bool) -> None:
        actor = cast(User, request.user)
        policies = {name: form.cleaned_data[name] for name in services.PROJECT_POLICIES if name in form.cleaned_data}
        if change:
            services.project_rename(actor=actor, via="admin", project=obj, name=obj.name)
        else:
            project, _ = services.project_create(actor=actor, via="admin", slug=obj.slug, name=obj.name)
            obj.pk = project.pk
        services.project_set_policy(actor=actor, via="admin", project=obj, **policies)
        obj.refresh_from_db()

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Membership:
            super().save_formset(request, form, formset, change)
            return
        actor, project = cast(User, request.user), form.instance
        formset.save(commit=False)  # fills deleted_objects, changed_objects and new_objects
        for membership in formset.deleted_objects:
            services.membership_remove(actor=actor, via="admin", project=project, user=membership.user)
        for membership, changed in formset.changed_objects:
            if "user" in changed:  # the row now names someone else: the first member leaves
                previous = Membership.objects.select_related("user").get(pk=membership.pk).user
                services.membership_remove(actor=actor, via="admin", project=project, user=previous)
            services.membership_set(
                actor=actor, via="admin", project=project, user=membership.user, role=membership.role
            )
        for membership in formset.new_objects:
            services.membership_set(
                actor=actor, via="admin", project=project, user=membership.user, role=membership.role
            )


@admin.register(Credential)
class CredentialAdmin(admin.ModelAdmin[Credential]):
    list_display = [
        "prefix",
        "label",
        "user",
        "provenance",
        "scope",
        "expires_at",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = ["provenance", "read_only", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["prefix", "label", "user__username"]
    list_select_related = ["user"]
    readonly_fields = [
        "user",
        "prefix",
        "token_hash",
        "provenance",
        "scope",
        "expires_at",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    fields = ["user", "label", *readonly_fields[1:]]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Credential]:
        return super().get_queryset(request).prefetch_related("projects")

    @admin.display(description="scope")
    def scope(self, obj: Credential) -> str:
        """What the token is narrowed to, as issue_token set it (fixed for the token's life)."""
        parts = [f"projects: {', '.join(sorted(project.slug for project in obj.projects.all()))}"]
        parts = parts if obj.projects.all() else []
        parts += ["read-only"] if obj.read_only else []
        return "; ".join(parts) or "full"

    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens are issued with manage.py issue_token, shown once

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Credential, form: Any, change: bool) -> None:
        # Only the label is editable; relabelling goes through the audited service.
        services.credential_relabel(actor=cast(User, request.user), via="admin", credential=obj, label=obj.label)

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Credential]) -> None:
        revoked = 0
        for credential in queryset.filter(revoked_at__isnull=True):
            services.credential_revoke(actor=cast(User, request.user), via="admin", credential=credential)
            revoked += 1
        self.message_user(request, f"Revoked {revoked} token(s).", messages.SUCCESS)


@admin.register(AccountEvent)
class AccountEventAdmin(admin.ModelAdmin[AccountEvent]):
    """The audit log of projects, memberships and tokens: read-only, as the database holds it."""

    list_display = ["created_at", "action", "actor", "via", "project_slug", "username", "credential_prefix"]
    list_filter = ["action", "via"]
    search_fields = ["project_slug", "username", "credential_prefix", "actor__username"]
    list_select_related = ["actor"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
