"""The admin console for memories: the dashboard feed and each memory's page (SPEC R-A1, R-A2).

Thin: reads start from memories.visibility, and forget/restore call the same services as the
API. Memories are never added, edited or deleted here; the store is forward-only.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote, unquote
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from guardian.admin import GuardedModelAdminMixin

from memories import selectors, services
from memories.admin.staff import staff_user
from memories.choices import State
from memories.errors import DomainError
from memories.ids import is_memory_id, memory_id_prefix
from memories.models import (
    MEMORY_FIELDS,
    Memory,
)
from memories.text import preview
from memories.visibility import Action, maintained_project_ids, permits, visible_memories


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
        user = staff_user(request)
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
        inherited: list[URLPattern] = super().get_urls()  # type: ignore[no-untyped-call]  # guardian is untyped
        return own + inherited

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
        user = staff_user(request)
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
        user = staff_user(request)
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
        user = staff_user(request)
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
        response: HttpResponse = super().obj_perms_manage_view(request, quote(self._grantable(request, object_pk).pk))  # type: ignore[no-untyped-call]
        return response

    def obj_perms_manage_user_view(self, request: HttpRequest, object_pk: str, user_id: str) -> HttpResponse:
        response: HttpResponse = super().obj_perms_manage_user_view(
            request, self._grantable(request, object_pk).pk, user_id
        )  # type: ignore[no-untyped-call]
        return response

    def obj_perms_manage_group_view(self, request: HttpRequest, object_pk: str, group_id: str) -> HttpResponse:
        response: HttpResponse = super().obj_perms_manage_group_view(
            request, self._grantable(request, object_pk).pk, group_id
        )  # type: ignore[no-untyped-call]
        return response
