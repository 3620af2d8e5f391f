"""The admin console for webhooks: a project's endpoints and their deliveries, for the project's
maintainers (memories.visibility.maintained_project_ids) and superusers."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from memories import services, webhooks
from memories.choices import DeliveryState, FeedEventType
from memories.models import (
    Project,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from memories.platform import webhook_targets
from memories.text import preview
from memories.visibility import maintained_project_ids
from memories.webhooks import SIGNATURE_HEADER


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
