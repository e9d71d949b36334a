"""The Celery application: Redis broker, JSON only, late acks, beat schedule in the database."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")

app = Celery("rosbi_platform")
# Broker/backend URLs, serializers, acks_late, prefetch=1 and the DatabaseScheduler are set as
# CELERY_* in settings.py so there is one place to read them.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
