"""Django's PostgreSQL backend with Rosbi's pool check (see `base.py`)."""
