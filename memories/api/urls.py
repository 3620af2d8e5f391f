from __future__ import annotations

from django.urls import path

from memories.api import views

urlpatterns = [
    path("memories/", views.MemoryListView.as_view(), name="memory-list"),
    path("memories/<str:memory_id>/", views.MemoryDetailView.as_view(), name="memory-detail"),
]
