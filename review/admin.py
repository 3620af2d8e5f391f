"""The conflict queue and its throughput page (SPEC R-A3, R-A4)."""

from __future__ import annotations

import difflib
import re
from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import User
from django.db.models import Avg, Count, DurationField, ExpressionWrapper, F, QuerySet
from django.db.models.functions import TruncDate
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from memories.errors import DomainError
from memories.humanize import age
from memories.text import preview
from memories.visibility import visible_memories
from review import services
from review.models import MODERATOR_ACTIONS, Conflict, ConflictStatus, JudgmentOutcome
from review.selectors import conflicts_for, judgments_for


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
    search_fields = ["older__content", "newer__content"]
    ordering = ["-opened_at"]
    actions = ["dismiss_selected"]
    change_form_template = "admin/review/conflict/change_form.html"
    readonly_fields = ("status", "resolution", "relation", "confidence", "rationale", "opened_at", "resolved_at")
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Conflict]:
        user = request.user
        assert isinstance(user, User)
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

    @admin.display(description="older")
    def older_preview(self, conflict: Conflict) -> str:
        return preview(conflict.older.content, 70)

    @admin.display(description="newer")
    def newer_preview(self, conflict: Conflict) -> str:
        return preview(conflict.newer.content, 70)

    @admin.display(description="confidence", ordering="confidence")
    def confidence_display(self, conflict: Conflict) -> str:
        return format_html("{}%", round(conflict.confidence * 100))

    @admin.display(description="project")
    def project(self, conflict: Conflict) -> str:
        return str(conflict.older.project or "personal")

    @admin.action(description="Dismiss the selected conflicts")
    def dismiss_selected(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> None:
        user = request.user
        assert isinstance(user, User)
        done = 0
        for conflict_id in queryset.filter(status=ConflictStatus.PENDING).values_list("pk", flat=True):
            services.conflict_resolve(user=user, conflict_id=conflict_id, action="dismiss")
            done += 1
        self.message_user(request, f"Dismissed {done} conflict(s).", messages.SUCCESS)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        own = [
            path("throughput/", view(self.throughput_view), name="review_conflict_throughput"),
            path("<int:conflict_id>/resolve/", view(self.resolve_view), name="review_conflict_resolve"),
        ]
        return own + super().get_urls()

    def resolve_view(self, request: HttpRequest, conflict_id: int) -> HttpResponse:
        user = request.user
        assert isinstance(user, User)
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
        context = {
            **(extra_context or {}),
            "conflict": conflict,
            "stale_version": stale_version,
            "older_html": older_html,
            "newer_html": newer_html,
            "actions_list": MODERATOR_ACTIONS,
        }
        return super().change_view(request, object_id, form_url, extra_context=context)

    def throughput_view(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        assert isinstance(user, User)
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
