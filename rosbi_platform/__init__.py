"""Rosbi platform project package; exposes the Celery app so `@shared_task` binds to it."""

from rosbi_platform.celery import app as celery_app

__all__ = ["celery_app"]
