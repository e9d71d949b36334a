"""The API documentation pages work in a browser under the site's own strict content security
policy, with no internet: Swagger UI lists the operations and Redoc renders them (issue 25,
defect 10: both pages were blank, their CDN bundles refused by the CSP)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Redoc's side menu shows Redocly's logo from their CDN whatever its options (it hides the
# image when it cannot load it); here the "CDN" answers with an empty image.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def offline_page(chromium, problems: list[str]):
    """A page that may reach only the test server (as in a club room without internet),
    collecting console errors and CSP violations as they happen."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.route(
        lambda url: not url.startswith("http://127.0.0.1"),
        lambda route: (
            route.fulfill(status=200, content_type="image/svg+xml", body="<svg/>")
            if route.request.url == REDOC_LOGO
            else (problems.append(f"left the site: {route.request.url}"), route.abort())
        ),
    )
    page = context.new_page()
    page.on(
        "console",
        lambda message: message.type == "error" and problems.append(f"console: {message.text}"),
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return page


def test_swagger_ui_lists_the_operations(chromium, asgi_live_server):
    problems: list[str] = []
    page = offline_page(chromium, problems)
    response = page.goto(f"{asgi_live_server.url}/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]

    page.wait_for_selector(".opblock-summary-path", timeout=20_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/tables/{id}/join" in path for path in paths), paths
    assert len(paths) > 30
    assert problems == []


def test_redoc_renders_the_operations(chromium, asgi_live_server):
    problems: list[str] = []
    page = offline_page(chromium, problems)
    response = page.goto(f"{asgi_live_server.url}/api/redoc/")
    assert "script-src 'self'" in response.headers["content-security-policy"]

    page.wait_for_selector("h1:has-text('Rosbi API')", timeout=20_000)
    page.get_by_text("/api/v1/tables/{id}/join").first.wait_for(state="attached", timeout=20_000)
    assert problems == []
