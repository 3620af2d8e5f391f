from __future__ import annotations

from django.urls import path

from review.api import views

urlpatterns = [
    path("conflicts/", views.ConflictListView.as_view(), name="conflict-list"),
    path("conflicts/<int:conflict_id>/resolve/", views.ConflictResolveView.as_view(), name="conflict-resolve"),
]
