from __future__ import annotations

from django.urls import path

from review.api import views

urlpatterns = [
    path("conflicts/", views.ConflictListView.as_view(), name="conflict-list"),
    path("conflicts/<int:conflict_id>/resolve/", views.ConflictResolveView.as_view(), name="conflict-resolve"),
    path(
        "conflicts/<int:conflict_id>/group/resolve/",
        views.ConflictGroupResolveView.as_view(),
        name="conflict-group-resolve",
    ),
]
