"""The admin console for memories: the dashboard feed and each memory's page (SPEC R-A1, R-A2).

Thin: reads start from memories.visibility, and forget/restore call the same services as the
API. Memories are never added, edited or deleted here; the store is forward-only.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote, unquote
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from guardian.admin import GuardedModelAdminMixin

from memories import selectors, services, webhooks
from memories.choices import DeliveryState, FeedEventType, SecretPolicy, State
from memories.errors import DomainError
from memories.ids import is_memory_id, memory_id_prefix
from memories.models import (
    MEMORY_FIELDS,
    AccountEvent,
    Credential,
    Membership,
    Memory,
    Project,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from memories.platform import webhook_targets
from memories.text import preview
from memories.visibility import Action, maintained_project_ids, permits, visible_memories
from memories.webhooks import SIGNATURE_HEADER


class LifecycleFilter(admin.SimpleListFilter):
    """Live by default: superseded versions stay out of the way until asked for."""

    title = "lifecycle"
    parameter_name = "lifecycle"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("live", "Live"),
            ("pending", "Pending review"),
            ("superseded", "Superseded"),
            ("forgotten", "Forgotten"),
            ("all", "All"),
        ]

    def choices(self, changelist: Any) -> Any:
        for value, label in self.lookup_choices:
            yield {
                "selected": (self.value() or "live") == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Memory]) -> QuerySet[Memory]:
        value = self.value() or "live"
        return queryset if value == "all" else queryset.filter(state=value)


class SessionFilter(admin.SimpleListFilter):
    """The sessions of the memories listed (a background capture's session, to review it whole)."""

    title = "session"
    parameter_name = "session"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        sessions = (
            model_admin.get_queryset(request)
            .exclude(session__isnull=True)
            .order_by("session")
            .values_list("session", flat=True)
            .distinct()[:50]
        )
        return [(session, preview(session, 40)) for session in sessions]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Memory]) -> QuerySet[Memory]:
        return queryset.filter(session=self.value()) if self.value() else queryset


# The memory object's fields; the successor and the closing memory are shown by id, as the API's
# memory object shows them, never fetched: Django would read those rows outside the visibility rule.
PAGE_FIELDS = tuple({"superseded_by": "successor_id", "closed_by": "closer_id"}.get(f, f) for f in MEMORY_FIELDS)


class ValidTimeFilter(admin.SimpleListFilter):
    """Valid time (valid_from, valid_until), apart from the lifecycle: a live memory whose
    validity has ended is expired, and recall leaves it out unless asked."""

    title = "valid time"
    parameter_name = "valid"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("now", "Valid now"), ("expired", "Expired"), ("future", "Not valid yet")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Memory]) -> QuerySet[Memory]:
        now = timezone.now()
        if self.value() == "expired":
            return queryset.filter(valid_until__lte=now)
        if self.value() == "future":
            return queryset.filter(valid_from__gt=now)
        if self.value() == "now":
            return queryset.filter(selectors.valid_condition())
        return queryset


@admin.register(Memory)
class MemoryAdmin(GuardedModelAdminMixin, admin.ModelAdmin[Memory]):
    list_display = ["short_content", "kind", "state_badge", "project", "owner", "provenance", "created_at"]
    # Projects and owners listed are those of memories the viewer sees, never every row of the
    # table: a project's name is not for non-members (SPEC §2), nor are other teams' people.
    list_filter = [
        LifecycleFilter,
        ValidTimeFilter,
        "kind",
        ("project", admin.RelatedOnlyFieldListFilter),
        "provenance",
        ("owner", admin.RelatedOnlyFieldListFilter),
        ("credential", admin.RelatedOnlyFieldListFilter),
        SessionFilter,
    ]
    search_fields = ["content"]
    list_select_related = ["owner", "project"]
    list_per_page = 50
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-id"]
    change_form_template = "admin/memories/memory/change_form.html"  # type: ignore[misc]
    fields = PAGE_FIELDS
    readonly_fields = PAGE_FIELDS

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Memory], search_term: str
    ) -> tuple[QuerySet[Memory], bool]:
        """A memory id, whole or its start (as the admin and the API print them), finds that
        memory; anything else searches the content."""
        prefix = memory_id_prefix(search_term)
        if prefix is not None:
            return queryset.filter(pk__startswith=prefix), False
        return super().get_search_results(request, queryset, search_term)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return super().changelist_view(request, {"title": "Memories", **(extra_context or {})})

    def get_queryset(self, request: HttpRequest) -> QuerySet[Memory]:
        user = request.user
        assert isinstance(user, User)
        return visible_memories(user).defer("embedding", "search_vector")

    actions = ["approve_selected", "reject_selected", "purge_selected"]

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        if not request.user.is_superuser:  # erasing content is the deployment's admins' alone
            actions.pop("purge_selected", None)
            if not maintained_project_ids(cast(User, request.user)).exists():
                actions.pop("approve_selected", None)
                actions.pop("reject_selected", None)
        return actions

    def _review_each(self, request: HttpRequest, queryset: QuerySet[Memory], verb: str) -> None:
        """Each selected memory through the same service as the API, one by one: one refused
        (not pending, not the viewer's to review) leaves the others done, and is named."""
        user = cast(User, request.user)
        service = services.memory_approve if verb == "approved" else services.memory_reject
        done, refused = 0, []
        for memory_id in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                service(user=user, credential=None, memory_id=memory_id)
            except DomainError as error:
                refused.append(f"{memory_id}: {error.message}")
            else:
                done += 1
        self.message_user(request, f"{done} memor{'y' if done == 1 else 'ies'} {verb}.", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not done: " + "; ".join(refused), messages.WARNING)

    @admin.action(description="Approve the selected pending memories")
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        self._review_each(request, queryset, "approved")

    @admin.action(description="Reject the selected pending memories (forgotten; a restore sends one back)")
    def reject_selected(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        self._review_each(request, queryset, "rejected")

    @admin.action(description="Purge the selected memories (erase their content for good)")
    def purge_selected(self, request: HttpRequest, queryset: QuerySet[Memory]) -> HttpResponse | None:
        if not request.user.is_superuser:
            raise PermissionDenied
        ids = sorted(queryset.values_list("pk", flat=True))
        reason = request.POST.get("reason", "").strip()
        error = ""
        if request.POST.get("confirmed") == "yes":
            if reason:
                try:
                    done = services.memory_purge(actor=request.user, via="admin", memory_ids=ids, reason=reason)
                except DomainError as refused:
                    self.message_user(request, refused.message, messages.ERROR)
                    return None
                already = f" ({len(done.already)} already purged)" if done.already else ""
                self.message_user(request, f"Purged {len(done.purged)} memories{already}.", messages.WARNING)
                return None
            error = "Say why these memories are purged; nothing was purged."
        context = {
            **self.admin_site.each_context(request),
            "title": "Purge memories",
            "opts": self.model._meta,
            "memories": queryset.select_related("owner", "project").order_by("pk")[:200],
            "selected": ids,
            "count": len(ids),
            "reason": reason,
            "error": error,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/memories/memory/purge_confirmation.html", context)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Nothing is edited in place (every field is read-only); "change" opens the page's
        # forget/restore actions and the per-object grants, for whoever may retire it.
        user = request.user
        if not (isinstance(user, User) and user.is_active and user.is_staff):
            return False
        return obj is None or permits(user, Action.RETIRE, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    @admin.display(description="content", ordering="content")
    def short_content(self, memory: Memory) -> str:
        return preview(memory.content, 90)

    @admin.display(description="state", ordering="state")
    def state_badge(self, memory: Memory) -> str:
        badge = format_html('<span class="zm-state zm-state-{}">{}</span>', memory.state, memory.state)
        if memory.valid_until is not None and memory.valid_until <= timezone.now():
            # Still live in the lifecycle, but its valid time has ended (recall leaves it out).
            badge += format_html(' <span class="zm-state zm-state-{}">{}</span>', "expired", "expired")
        return badge

    @admin.display(description="superseded by")
    def successor_id(self, memory: Memory) -> str:
        return self._memory_link(memory, memory.superseded_by_id)

    @admin.display(description="closed by")
    def closer_id(self, memory: Memory) -> str:
        return self._memory_link(memory, memory.closed_by_id)

    def _memory_link(self, memory: Memory, memory_id: str | None) -> str:
        """A memory named by id is a link to its page when the viewer may see it (get_object
        found which), else the bare id; none is the admin's empty value, as everywhere else."""
        if memory_id is None:
            return self.get_empty_value_display()
        if memory_id not in getattr(memory, "zm_linkable", set()):
            return memory_id
        url = reverse("admin:memories_memory_change", args=[quote(memory_id)])
        return format_html('<a href="{}">{}</a>', url, memory_id)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        own = [
            path("<path:object_id>/forget/", view(self.forget_view), name="memories_memory_forget"),
            path(
                "<path:object_id>/restore/",
                view(self.restore_view),
                name="memories_memory_restore",
            ),
            path("<path:object_id>/review/", view(self.review_view), name="memories_memory_review"),
        ]
        return own + super().get_urls()

    def _memory_for(self, request: HttpRequest, object_id: str) -> Memory:
        """The memory an admin URL names, if the viewer may see it; else 404.

        Django's admin writes primary keys into its URLs quoted (the feed links ``mem_01…`` as
        ``mem_5F01…``), and its own views unquote; every view here must too, or a page reached
        by the admin's own links finds nothing. Unquoting leaves a raw, hand-typed id as it is.
        """
        memory_id = unquote(object_id)
        # Checked before any query: a NUL byte from a URL's %00 makes PostgreSQL fail the query.
        memory = self.get_queryset(request).filter(pk=memory_id).first() if is_memory_id(memory_id) else None
        if memory is None:
            raise Http404("No such memory.")  # missing and invisible answer alike
        return memory

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Memory | None:
        # Django's own views (history) pass the unquoted id here; keep a malformed one from the query.
        memory = super().get_object(request, object_id, from_field) if is_memory_id(object_id) else None
        if memory is not None:
            # The successor and the closing memory it names that the viewer may see: those ids
            # are links on its page; a hidden one stays a bare id (as the API's memory shows it).
            named = [pk for pk in (memory.superseded_by_id, memory.closed_by_id) if pk]
            memory.zm_linkable = (  # type: ignore[attr-defined]
                set(visible_memories(request.user).filter(pk__in=named).values_list("pk", flat=True))
                if named
                else set()
            )
        return memory

    def _lifecycle(self, request: HttpRequest, object_id: str, action: str) -> HttpResponse:
        user = request.user
        assert isinstance(user, User)
        memory = self._memory_for(request, object_id)
        if request.method == "POST":
            service = services.memory_forget if action == "forget" else services.memory_restore
            try:
                service(user=user, credential=None, memory_id=memory.pk, reason=request.POST.get("reason", ""))
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                done = "forgotten" if action == "forget" else "restored"
                self.message_user(request, f"Memory {memory.pk} {done}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:memories_memory_change", args=[quote(memory.pk)]))

    def review_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A pending memory's review: approve it, reject it, or correct it and approve."""
        user = request.user
        assert isinstance(user, User)
        memory = self._memory_for(request, object_id)
        back = HttpResponseRedirect(reverse("admin:memories_memory_change", args=[quote(memory.pk)]))
        content = memory.content
        if request.method == "POST":
            verdict, reason = request.POST.get("verdict", ""), request.POST.get("reason", "")
            content = request.POST.get("content", "").strip()
            try:
                if verdict == "approve":
                    services.memory_approve(user=user, credential=None, memory_id=memory.pk, reason=reason)
                    self.message_user(request, f"Memory {memory.pk} approved.", messages.SUCCESS)
                elif verdict == "reject":
                    services.memory_reject(user=user, credential=None, memory_id=memory.pk, reason=reason)
                    self.message_user(request, f"Memory {memory.pk} rejected.", messages.SUCCESS)
                elif verdict == "edit" and content:
                    result = services.memory_approve_edited(
                        user=user, credential=None, memory_id=memory.pk, content=content, reason=reason
                    )
                    self.message_user(
                        request, f"Approved as {result.memory.pk}, which replaces {memory.pk}.", messages.SUCCESS
                    )
                    return HttpResponseRedirect(reverse("admin:memories_memory_change", args=[quote(result.memory.pk)]))
                else:
                    self.message_user(request, "Choose approve, reject, or edit with content.", messages.ERROR)
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
            return back
        context = {
            **self.admin_site.each_context(request),
            "title": f"Review {memory.pk}",
            "opts": self.model._meta,
            "original": memory,
            "content": content,
        }
        return TemplateResponse(request, "admin/memories/memory/review.html", context)

    def forget_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._lifecycle(request, object_id, "forget")

    def restore_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._lifecycle(request, object_id, "restore")

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        user = request.user
        assert isinstance(user, User)
        memory = self._memory_for(request, object_id)
        # Every read starts from what the viewer may see (memories.visibility, via the selectors):
        # a version, link or event that touches a hidden memory is left out, as the API's are.
        links = selectors.memory_links(user=user, memory=memory)
        context = {
            **(extra_context or {}),
            "history": selectors.memory_history(user=user, memory_id=memory.pk),
            "links_out": links.outgoing,
            "links_in": links.incoming,
            "events": selectors.memory_events(user=user, memory=memory),
            "may_retire": permits(user, Action.RETIRE, memory),
            "is_live": memory.state == State.LIVE,
            "is_pending": memory.state == State.PENDING,
            # What the page is, not Django's "Change memory" (most viewers may not change it).
            "title": f"Memory {memory.pk}",
            "subtitle": preview(memory.content, 80),
        }
        return super().change_view(request, object_id, form_url, extra_context=context)

    # django-guardian's grant pages. Its first page unquotes the id; the two it links to (a
    # user's or a group's grants, reached by a link relative to the first page's quoted URL) do
    # not, so they are handed the plain id here. Guardian lets any staff user who may change the
    # model manage every object's grants; sharing a memory is for who may retire it (its owner,
    # its project's maintainers), so a member who only sees it is refused.
    def _grantable(self, request: HttpRequest, object_pk: str) -> Memory:
        memory = self._memory_for(request, object_pk)
        if not self.has_change_permission(request, memory):
            raise PermissionDenied("Only the memory's owner or a maintainer of its project may share it.")
        return memory

    def obj_perms_manage_view(self, request: HttpRequest, object_pk: str) -> HttpResponse:
        return super().obj_perms_manage_view(request, quote(self._grantable(request, object_pk).pk))

    def obj_perms_manage_user_view(self, request: HttpRequest, object_pk: str, user_id: str) -> HttpResponse:
        return super().obj_perms_manage_user_view(request, self._grantable(request, object_pk).pk, user_id)

    def obj_perms_manage_group_view(self, request: HttpRequest, object_pk: str, group_id: str) -> HttpResponse:
        return super().obj_perms_manage_group_view(request, self._grantable(request, object_pk).pk, group_id)


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


# -- webhooks ---------------------------------------------------------------------------------


def _maintained_projects(user: Any) -> QuerySet[Project]:
    """The projects whose webhooks ``user`` manages: the ones they maintain (all, for a superuser)."""
    if not (isinstance(user, User) and user.is_active and user.is_staff):
        return Project.objects.none()
    if user.is_superuser:
        return Project.objects.all()
    return Project.objects.filter(pk__in=maintained_project_ids(user))


class _TeamAdminOnly:
    """Open to superusers and to staff who maintain a project, for their projects' rows."""

    project_path = "project"

    def _mine(self, request: HttpRequest, obj: Any) -> bool:
        projects = _maintained_projects(request.user)
        if obj is None:
            # Asked for every model on every admin page (the navigation): once per request.
            cached = getattr(request, "_zm_maintains_a_project", None)
            if cached is None:
                cached = projects.exists()
                setattr(request, "_zm_maintains_a_project", cached)  # noqa: B010
            return bool(cached)
        project_id = getattr(obj, f"{self.project_path.replace('__', '.')}_id", None)
        if project_id is None:
            target: Any = obj
            for part in self.project_path.split("__"):
                target = getattr(target, part)
            project_id = target.pk
        return projects.filter(pk=project_id).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._mine(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._mine(request, obj)


class WebhookEndpointForm(forms.ModelForm[WebhookEndpoint]):
    url = forms.URLField(max_length=500, assume_scheme="https", help_text="Where to POST the events (http or https).")
    events = forms.TypedMultipleChoiceField(
        choices=FeedEventType.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="The event types to send; none ticked sends them all.",
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["project", "url", "description", "events", "active"]

    def clean_url(self) -> str:
        # The service refuses it too; here it is a form error rather than a failed save.
        url = str(self.cleaned_data["url"])
        if "url" in self.changed_data and (refusal := webhook_targets.url_refusal(url)) is not None:
            raise forms.ValidationError(refusal)
        return url


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(_TeamAdminOnly, admin.ModelAdmin[WebhookEndpoint]):
    """A project's webhook endpoints, for its maintainers. Changes go through the audited
    account services; the secret is generated, shown here to set up the receiver."""

    form = WebhookEndpointForm
    list_display = ["url", "project", "event_types", "active", "waiting", "dead", "created_at"]
    list_filter = ["active", ("project", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["url", "description"]
    list_select_related = ["project"]
    readonly_fields = ("secret", "signing", "created_by", "created_at")

    def get_fields(self, request: HttpRequest, obj: WebhookEndpoint | None = None) -> Any:
        fields = ["project", "url", "description", "events", "active"]
        return fields + (list(self.readonly_fields) if obj is not None else [])

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookEndpoint]:
        return (
            super()
            .get_queryset(request)
            .filter(project__in=_maintained_projects(request.user))
            .annotate(
                waiting_count=Count("deliveries", filter=Q(deliveries__state=DeliveryState.PENDING)),
                dead_count=Count("deliveries", filter=Q(deliveries__state=DeliveryState.DEAD)),
            )
        )

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "project":
            kwargs["queryset"] = _maintained_projects(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._mine(request, None)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._mine(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._mine(request, obj)

    @admin.display(description="events")
    def event_types(self, endpoint: WebhookEndpoint) -> str:
        return ", ".join(endpoint.events) or "all"

    @admin.display(description="waiting")
    def waiting(self, endpoint: Any) -> int:
        return int(endpoint.waiting_count)

    @admin.display(description="dead")
    def dead(self, endpoint: Any) -> int:
        return int(endpoint.dead_count)

    @admin.display(description="how receivers verify")
    def signing(self, endpoint: WebhookEndpoint) -> str:
        return (
            f"Each POST carries {SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>, the HMAC-SHA256 of "
            "'<t>.<body>' keyed with the secret above; Zeromemory-Event-Id repeats on every retry "
            "(deduplicate on it). See docs/api.md, Webhooks."
        )

    def save_model(self, request: HttpRequest, obj: WebhookEndpoint, form: Any, change: bool) -> None:
        services.webhook_endpoint_save(actor=cast(User, request.user), via="admin", endpoint=obj)

    def delete_model(self, request: HttpRequest, obj: WebhookEndpoint) -> None:
        services.webhook_endpoint_remove(actor=cast(User, request.user), via="admin", endpoint=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]) -> None:
        for endpoint in queryset:
            self.delete_model(request, endpoint)


class WebhookAttemptInline(admin.TabularInline[WebhookAttempt, WebhookDelivery]):
    model = WebhookAttempt
    extra = 0
    fields = ("number", "at", "status", "milliseconds", "error")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(_TeamAdminOnly, admin.ModelAdmin[WebhookDelivery]):
    """The delivery log: every event owed to an endpoint, its state and each attempt."""

    project_path = "endpoint__project"
    list_display = [
        "event_id_display",
        "event_type",
        "endpoint",
        "state",
        "attempts",
        "last_status",
        "short_error",
        "next_attempt_at",
        "delivered_at",
    ]
    list_filter = ["state", "event__type", ("endpoint", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["event", "endpoint", "endpoint__project"]
    ordering = ["-id"]
    inlines = [WebhookAttemptInline]
    fields = (
        "event_id_display",
        "event_type",
        "endpoint",
        "state",
        "attempts",
        "next_attempt_at",
        "last_status",
        "last_error",
        "delivered_at",
        "created_at",
    )
    readonly_fields = fields
    actions = ["send_again"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookDelivery]:
        return super().get_queryset(request).filter(endpoint__project__in=_maintained_projects(request.user))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="event", ordering="event_id")
    def event_id_display(self, delivery: WebhookDelivery) -> str:
        return delivery.event.public_id

    @admin.display(description="type", ordering="event__type")
    def event_type(self, delivery: WebhookDelivery) -> str:
        return delivery.event.type

    @admin.display(description="last error")
    def short_error(self, delivery: WebhookDelivery) -> str:
        return preview(delivery.last_error, 60)

    @admin.action(description="Send the selected deliveries again")
    def send_again(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        resent = webhooks.deliveries_resend(
            actor=cast(User, request.user), delivery_ids=list(queryset.values_list("pk", flat=True))
        )
        self.message_user(request, f"{resent} deliver{'y' if resent == 1 else 'ies'} queued to be sent again.")
