from __future__ import annotations

from django.urls import path

from memories.api import views

urlpatterns = [
    path("memories/", views.MemoryListView.as_view(), name="memory-list"),
    path("memories/batch/", views.MemoryBatchView.as_view(), name="memory-batch"),
    path("memories/<str:memory_id>/", views.MemoryDetailView.as_view(), name="memory-detail"),
    path("memories/<str:memory_id>/forget/", views.MemoryForgetView.as_view(), name="memory-forget"),
    path("memories/<str:memory_id>/restore/", views.MemoryRestoreView.as_view(), name="memory-restore"),
    path("memories/<str:memory_id>/approve/", views.MemoryApproveView.as_view(), name="memory-approve"),
    path("memories/<str:memory_id>/reject/", views.MemoryRejectView.as_view(), name="memory-reject"),
    path("memories/<str:memory_id>/history/", views.MemoryHistoryView.as_view(), name="memory-history"),
    path("links/", views.LinkCreateView.as_view(), name="link-create"),
    path("recall/", views.RecallView.as_view(), name="recall"),
    path("context/", views.ContextView.as_view(), name="context"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("whoami/", views.WhoamiView.as_view(), name="whoami"),
]
