# One image for web, worker, beat and migrate (the command differs per compose service).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 1000 rosbi
WORKDIR /app

# Dependencies first so code changes do not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p rosbi_platform games tournaments ratings \
    && touch rosbi_platform/__init__.py games/__init__.py tournaments/__init__.py ratings/__init__.py \
    && pip install -e . \
    && rm -rf rosbi_platform games tournaments ratings

COPY . .
# Static files are collected at build time with throw-away values (no services are contacted).
RUN DEBUG=false \
    SECRET_KEY=collectstatic-only-not-used-at-runtime-0123456789abcdefghijklmnop \
    ALLOWED_HOSTS=build.invalid \
    REDIS_URL=redis://build.invalid:6379/0 \
    python manage.py collectstatic --noinput \
    && python -m compileall -q games rosbi_platform tournaments ratings \
    && chown -R rosbi:rosbi /app/var

USER rosbi
EXPOSE 8000
CMD ["uvicorn", "rosbi_platform.asgi:application", "--host=0.0.0.0", "--port=8000", "--proxy-headers", "--ws-per-message-deflate=false", "--ws-max-size=65536"]
