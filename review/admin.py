"""The conflict queue and its throughput page (SPEC R-A3, R-A4)."""

from __future__ import annotations

import difflib
import re
from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import quote, unquote
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth.models import User
from django.db.models import Avg, Count, DurationField, ExpressionWrapper, F, Q, QuerySet
from django.db.models.functions import TruncDate
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from memories.admin.staff import staff_user
from memories.errors import DomainError
from memories.humanize import age
from memories.ids import MEMORY_ID_IN_TEXT, memory_id_prefix
from memories.models import Memory
from memories.text import preview
from memories.visibility import visible_memories
from review import services
from review.models import MODERATOR_ACTIONS, Conflict, ConflictStatus, GroupAction, JudgmentOutcome, Relation
from review.selectors import (
    ConflictGroup,
    conflict_group_of,
    conflict_groups,
    conflicts_for,
    group_memories,
    judgments_for,
)

# What the judge's relation says of the newer memory, as the verb of "the newer memory … the older
# one" on the conflict's page (the relation's value is a label, not always a verb: "duplicate").
RELATION_SENTENCE: dict[str, str] = {
    Relation.DUPLICATE: "repeats",
    Relation.SUPERSEDES: "supersedes",
    Relation.COMPLEMENTARY: "adds to",
    Relation.CONTRADICTS: "contradicts",
    Relation.UNRELATED: "is unrelated to",
}


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [*ConflictStatus.choices, ("all", "All")]

    def choices(self, changelist: Any) -> Any:
        for value, label in self.lookup_choices:
            yield {
                "selected": (self.value() or ConflictStatus.PENDING) == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> QuerySet[Conflict]:
        value = self.value() or ConflictStatus.PENDING
        return queryset if value == "all" else queryset.filter(status=value)


class ConfidenceFilter(admin.SimpleListFilter):
    title = "confidence"
    parameter_name = "confidence"
    bands = {"low": (0.0, 0.5), "medium": (0.5, 0.75), "high": (0.75, 1.01)}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("low", "below 0.5"), ("medium", "0.5 to 0.75"), ("high", "0.75 and above")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> QuerySet[Conflict]:
        band = self.bands.get(self.value() or "")
        return queryset.filter(confidence__gte=band[0], confidence__lt=band[1]) if band else queryset


class AgeFilter(admin.SimpleListFilter):
    title = "waiting"
    parameter_name = "age"
    ages = {"day": timedelta(days=1), "week": timedelta(days=7)}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("day", "more than a day"), ("week", "more than a week")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> QuerySet[Conflict]:
        age = self.ages.get(self.value() or "")
        return queryset.filter(opened_at__lt=timezone.now() - age) if age else queryset


def word_diff(older: str, newer: str) -> tuple[SafeString, SafeString]:
    """Both texts with the words that differ marked (<del> in the older, <ins> in the newer)."""
    a, b = older.split(), newer.split()
    left: list[str] = []
    right: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        old_words, new_words = escape(" ".join(a[i1:i2])), escape(" ".join(b[j1:j2]))
        if tag == "equal":
            left.append(old_words)
            right.append(new_words)
            continue
        if old_words:
            left.append(f'<del class="zm-diff">{old_words}</del>')
        if new_words:
            right.append(f'<ins class="zm-diff">{new_words}</ins>')
    return mark_safe(" ".join(left)), mark_safe(" ".join(right))


def _pending_view(request: HttpRequest) -> bool:
    return request.GET.get(StatusFilter.parameter_name, ConflictStatus.PENDING) in ("", ConflictStatus.PENDING)


class GroupedChangeList(ChangeList):
    """The pending queue, one row per group (review.selectors.ConflictGroup): the row of its
    lead conflict, shown when any conflict of the group matches the filters and the search.
    The other statuses list conflicts one by one, as before."""

    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> QuerySet[Conflict]:
        queryset = super().get_queryset(request, exclude_parameters)
        self.zm_groups: dict[int, ConflictGroup] = {}
        if not _pending_view(request) or not isinstance(request.user, User):
            return queryset
        matched = set(queryset.values_list("pk", flat=True))
        self.zm_groups = {
            group.lead: group for group in conflict_groups(user=request.user) if matched.intersection(group.conflicts)
        }
        leads = self.apply_select_related(self.root_queryset.filter(pk__in=list(self.zm_groups)))
        return leads.order_by(*self.get_ordering(request, leads))

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        groups = getattr(self, "zm_groups", {})
        shown = [groups[row.pk] for row in self.result_list if row.pk in groups]
        memories = (
            group_memories(user=request.user, ids={value for group in shown for value in group.values})
            if isinstance(request.user, User)
            else {}
        )
        for row in self.result_list:
            group = groups.get(row.pk)
            row.zm_group = group
            row.zm_values = [memories[value] for value in group.values if value in memories] if group else []


@admin.register(Conflict)
class ConflictAdmin(admin.ModelAdmin[Conflict]):
    list_display = ["id", "older_preview", "newer_preview", "relation", "confidence_display", "project", "opened_at"]
    # Only the projects of conflicts the viewer may moderate (as the memory feed's filters do).
    list_filter = [
        StatusFilter,
        "relation",
        ConfidenceFilter,
        ("older__project", admin.RelatedOnlyFieldListFilter),
        AgeFilter,
    ]
    list_select_related = ["older", "newer", "older__project"]
    # A row leads to its conflict by what it is about, the two memories' previews, not only its id.
    list_display_links = ["id", "older_preview", "newer_preview"]
    search_fields = ["older__content", "newer__content"]
    ordering = ["-opened_at"]
    actions = ["dismiss_selected"]
    change_form_template = "admin/review/conflict/change_form.html"
    readonly_fields = ("status", "resolution", "relation", "confidence", "rationale_linked", "opened_at", "resolved_at")
    fields = readonly_fields

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return GroupedChangeList

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Conflict], search_term: str
    ) -> tuple[QuerySet[Conflict], bool]:
        """A memory id, whole or its start, finds the conflicts that memory is in, either side."""
        prefix = memory_id_prefix(search_term)
        if prefix is not None:
            return queryset.filter(Q(older__id__startswith=prefix) | Q(newer__id__startswith=prefix)), False
        return super().get_search_results(request, queryset, search_term)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return super().changelist_view(request, {"title": "Conflict queue", **(extra_context or {})})

    def get_list_display(self, request: HttpRequest) -> Any:
        if _pending_view(request):
            # One row per group: the values in dispute stand where the pair's two sides stood.
            return ["id", "group_values", "relation", "confidence_display", "project", "opened_at"]
        return self.list_display

    def get_queryset(self, request: HttpRequest) -> QuerySet[Conflict]:
        user = staff_user(request)
        return conflicts_for(user).defer(
            "older__embedding", "older__search_vector", "newer__embedding", "newer__search_vector"
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def _staff(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._staff(request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._staff(request)

    @admin.display(description="rationale")
    def rationale_linked(self, conflict: Conflict) -> str:
        """The judge's or the fork's words, with the pair's own ids as links to their pages (who
        may moderate the pair may see both; any other id stays text)."""
        pair = {conflict.older_id, conflict.newer_id}

        def link(match: re.Match[str]) -> str:
            memory_id = match.group(0)
            if memory_id not in pair:
                return memory_id
            url = reverse("admin:memories_memory_change", args=[quote(memory_id)])  # as the admin writes ids
            return format_html('<a href="{}">{}</a>', url, memory_id)

        return mark_safe(MEMORY_ID_IN_TEXT.sub(link, escape(conflict.rationale)))

    @admin.display(description="older")
    def older_preview(self, conflict: Conflict) -> str:
        return preview(conflict.older.content, 70)

    @admin.display(description="newer")
    def newer_preview(self, conflict: Conflict) -> str:
        return preview(conflict.newer.content, 70)

    @admin.display(description="values in dispute")
    def group_values(self, conflict: Conflict) -> str:
        group: ConflictGroup | None = getattr(conflict, "zm_group", None)
        values: list[Memory] = getattr(conflict, "zm_values", [])
        if group is None:
            return "-"
        # Each value's preview leads where the row is decided: a lone pair's own page, or the
        # page deciding a group of several conflicts at once (whose count heads the cell).
        several = len(group.conflicts) > 1
        link = reverse("admin:review_conflict_group" if several else "admin:review_conflict_change", args=[conflict.pk])
        items = format_html_join(
            "", '<li><a href="{}">{}</a></li>', ((link, preview(value.content, 70)) for value in values[:4])
        )
        more = format_html("<li>… and {} more</li>", len(values) - 4) if len(values) > 4 else ""
        head = (
            format_html(
                '<a href="{}" class="zm-group-link">{} values · {} conflicts</a>',
                link,
                len(values),
                len(group.conflicts),
            )
            if several
            else ""
        )
        return format_html('{}<ol class="zm-values">{}{}</ol>', head, items, more)

    @admin.display(description="confidence", ordering="confidence")
    def confidence_display(self, conflict: Conflict) -> str:
        return format_html("{}%", round(conflict.confidence * 100))

    @admin.display(description="project")
    def project(self, conflict: Conflict) -> str:
        return str(conflict.older.project or "personal")

    @admin.action(description="Dismiss the selected conflicts (in the pending queue: their whole groups)")
    def dismiss_selected(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> None:
        user = staff_user(request)
        done = 0
        for conflict_id in queryset.filter(status=ConflictStatus.PENDING).values_list("pk", flat=True):
            if _pending_view(request):  # a row is a group there: the whole group is dismissed
                try:
                    group = services.conflict_group_resolve(
                        user=user, conflict_id=conflict_id, action=GroupAction.DISMISS
                    )
                except DomainError:
                    continue  # settled meanwhile (by another row's group, or someone else)
                done += len(group.conflicts)
            else:
                services.conflict_resolve(user=user, conflict_id=conflict_id, action="dismiss")
                done += 1
        self.message_user(request, f"Dismissed {done} conflict(s).", messages.SUCCESS)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        own = [
            path("throughput/", view(self.throughput_view), name="review_conflict_throughput"),
            path("<int:conflict_id>/resolve/", view(self.resolve_view), name="review_conflict_resolve"),
            path("<int:conflict_id>/group/", view(self.group_view), name="review_conflict_group"),
            path(
                "<int:conflict_id>/group/resolve/", view(self.group_resolve_view), name="review_conflict_group_resolve"
            ),
        ]
        return own + super().get_urls()

    def resolve_view(self, request: HttpRequest, conflict_id: int) -> HttpResponse:
        user = staff_user(request)
        conflict = get_object_or_404(self.get_queryset(request), pk=conflict_id)
        if request.method == "POST":
            action = request.POST.get("action", "")
            try:  # the service refuses an unknown action (ValidationFailed, a DomainError)
                services.conflict_resolve(user=user, conflict_id=conflict.pk, action=action)
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return HttpResponseRedirect(reverse("admin:review_conflict_change", args=[conflict.pk]))
            self.message_user(request, f"Conflict {conflict.pk}: {action.replace('_', ' ')}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:review_conflict_changelist"))

    def group_view(self, request: HttpRequest, conflict_id: int) -> HttpResponse:
        """Every live value of the conflict's group, newest first, each with "This one stands";
        and "Keep all" and "Dismiss". Only what the viewer may moderate (conflicts_for)."""
        user = staff_user(request)
        conflict = get_object_or_404(self.get_queryset(request), pk=conflict_id)
        group = conflict_group_of(user=user, conflict_id=conflict.pk)
        if group is None:  # settled meanwhile: its own page says how
            self.message_user(request, f"Conflict {conflict.pk} is already {conflict.status}.", messages.WARNING)
            return HttpResponseRedirect(reverse("admin:review_conflict_change", args=[conflict.pk]))
        memories = group_memories(user=user, ids=group.memories)
        members = self.get_queryset(request).filter(pk__in=group.conflicts).order_by("pk")
        context = {
            **self.admin_site.each_context(request),
            "title": f"Conflicts {', '.join(str(pk) for pk in sorted(group.conflicts))}: one decision",
            "opts": self.model._meta,
            "group": group,
            "lead": conflict if conflict.pk == group.lead else None,
            "values": [memories[value] for value in group.values if value in memories],
            "retired": [memories[m] for m in group.memories if m not in group.values and m in memories],
            "members": members,
            "expected": ",".join(str(pk) for pk in group.conflicts),
            "group_actions": GroupAction,
        }
        return TemplateResponse(request, "admin/review/conflict/group.html", context)

    def group_resolve_view(self, request: HttpRequest, conflict_id: int) -> HttpResponse:
        user = staff_user(request)
        conflict = get_object_or_404(self.get_queryset(request), pk=conflict_id)
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:review_conflict_group", args=[conflict.pk]))
        action = request.POST.get("action", "")
        memory_id = request.POST.get("memory") or None
        expected_text = request.POST.get("conflicts", "")
        try:
            expected = [int(pk) for pk in expected_text.split(",")] if expected_text else None
        except ValueError:
            expected = []  # not a group the page showed: refused as a changed group
        try:
            group = services.conflict_group_resolve(
                user=user, conflict_id=conflict.pk, action=action, memory_id=memory_id, expected=expected
            )
        except DomainError as error:
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:review_conflict_group", args=[conflict.pk]))
        settled = f"{len(group.conflicts)} conflict{'s' if len(group.conflicts) != 1 else ''}"
        if action == GroupAction.STANDS:
            others = len(group.values) - 1
            done = f"{memory_id} stands; {others} other value{'s' if others != 1 else ''} superseded by it"
        else:
            done = "kept all values" if action == GroupAction.KEEP_ALL else "dismissed"
        self.message_user(request, f"Group of conflict {group.lead}: {done} ({settled} settled).", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:review_conflict_changelist"))

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # The admin quotes ids in its URLs (a no-op for numbers, but unquoting is the rule), and a
        # malformed one must not reach the query, where it would fail as a 500.
        conflict_id = unquote(object_id)
        conflicts = self.get_queryset(request).select_related("older__owner", "newer__owner")
        conflict = conflicts.filter(pk=int(conflict_id)).first() if re.fullmatch(r"[0-9]{1,18}", conflict_id) else None
        if conflict is None:
            raise Http404("No such conflict.")  # missing and not yours answer alike
        older_html, newer_html = word_diff(conflict.older.content, conflict.newer.content)
        # A fork's stale version, shown only if the viewer may see it (the one visibility rule).
        stale_version = (
            visible_memories(request.user).filter(pk=conflict.stale_version_id).select_related("owner").first()
            if conflict.stale_version_id is not None and isinstance(request.user, User)
            else None
        )
        group = (
            conflict_group_of(user=request.user, conflict_id=conflict.pk)
            if conflict.status == ConflictStatus.PENDING and isinstance(request.user, User)
            else None
        )
        opened = timezone.localtime(conflict.opened_at)
        context = {
            **(extra_context or {}),
            # What the page is, not Django's "Change conflict" over the pair's two ids.
            "title": f"Conflict {conflict.pk}",
            "subtitle": f"{conflict.get_status_display()} · opened {opened:%Y-%m-%d %H:%M}",
            "relation_sentence": RELATION_SENTENCE.get(conflict.relation, conflict.relation),
            "conflict": conflict,
            "group": group,
            "stale_version": stale_version,
            "older_html": older_html,
            "newer_html": newer_html,
            "actions_list": MODERATOR_ACTIONS,
        }
        return super().change_view(request, object_id, form_url, extra_context=context)

    def throughput_view(self, request: HttpRequest) -> HttpResponse:
        user = staff_user(request)
        days = 30
        since = timezone.now() - timedelta(days=days)
        conflicts = self.get_queryset(request)
        opened = dict(
            conflicts.filter(opened_at__gte=since)
            .annotate(day=TruncDate("opened_at"))
            .values_list("day")
            .annotate(n=Count("id"))
            .values_list("day", "n")
        )
        human = dict(
            conflicts.filter(resolved_at__gte=since, resolved_by__isnull=False)
            .annotate(day=TruncDate("resolved_at"))
            .values_list("day")
            .annotate(n=Count("id"))
            .values_list("day", "n")
        )
        judgments = judgments_for(user).filter(created_at__gte=since, outcome=JudgmentOutcome.AUTO_RESOLVED)
        auto = dict(
            judgments.annotate(day=TruncDate("created_at"))
            .values_list("day")
            .annotate(n=Count("id"))
            .values_list("day", "n")
        )
        waited = ExpressionWrapper(F("resolved_at") - F("opened_at"), output_field=DurationField())
        average_wait = conflicts.filter(resolved_at__isnull=False, resolved_by__isnull=False).aggregate(
            wait=Avg(waited)
        )["wait"]
        queued_total = conflicts.count()
        same_credential = conflicts.filter(same_credential=True).count()
        today = timezone.now().date()
        rows = []
        for offset in range(days - 1, -1, -1):
            day = today - timedelta(days=offset)
            rows.append(
                {"day": day, "opened": opened.get(day, 0), "auto": auto.get(day, 0), "human": human.get(day, 0)}
            )
        context = {
            **self.admin_site.each_context(request),
            "title": "Queue throughput",
            "opts": self.model._meta,
            "rows": rows,
            "chart": throughput_chart(rows),
            "totals": {
                "opened": sum(r["opened"] for r in rows),
                "auto": sum(r["auto"] for r in rows),
                "human": sum(r["human"] for r in rows),
                "pending": conflicts.filter(status=ConflictStatus.PENDING).count(),
            },
            "average_wait": age(average_wait.total_seconds()) if average_wait else None,
            "same_credential_share": (same_credential / queued_total) if queued_total else None,
            "queued_total": queued_total,
        }
        return TemplateResponse(request, "admin/review/conflict/throughput.html", context)


def throughput_chart(rows: list[dict[str, Any]]) -> SafeString:
    """A grouped bar chart as inline SVG: opened, auto-resolved, human-resolved per day."""
    width, height, pad = 900, 220, 30
    peak = max([1, *(max(r["opened"], r["auto"], r["human"]) for r in rows)])
    slot = (width - 2 * pad) / max(1, len(rows))
    bar = max(2.0, slot / 4)
    colors = {"opened": "#417690", "auto": "#79aec8", "human": "#e1a73c"}
    parts = [
        f'<svg class="zm-chart" viewBox="0 0 {width} {height + 30}" width="100%" role="img" '
        'aria-label="Conflicts per day">'
    ]
    parts.append(f'<line x1="{pad}" y1="{height}" x2="{width - pad}" y2="{height}" stroke="#ccc"/>')
    for index, row in enumerate(rows):
        x = pad + index * slot
        for series, (key, color) in enumerate(colors.items()):
            value = row[key]
            bar_height = (height - pad) * value / peak
            parts.append(
                f'<rect x="{x + series * bar:.1f}" y="{height - bar_height:.1f}" width="{bar - 1:.1f}" '
                f'height="{bar_height:.1f}" fill="{color}"><title>{row["day"]}: {value} {key}</title></rect>'
            )
        if index % 5 == 0:
            parts.append(f'<text x="{x:.1f}" y="{height + 16}" font-size="11" fill="#666">{row["day"]:%b %d}</text>')
    parts.append(f'<text x="{pad}" y="14" font-size="11" fill="#666">max {peak} per day</text>')
    legend_x = width - 370
    for index, (key, color) in enumerate(colors.items()):
        label = {"opened": "opened", "auto": "auto-resolved", "human": "resolved by people"}[key]
        parts.append(f'<rect x="{legend_x + index * 110}" y="4" width="10" height="10" fill="{color}"/>')
        parts.append(f'<text x="{legend_x + index * 110 + 14}" y="13" font-size="11" fill="#333">{label}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
