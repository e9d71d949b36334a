"""WSGI entry point (management tools only; the site itself is served over ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")

application = get_wsgi_application()
