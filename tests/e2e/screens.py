"""What the browser tests check on any page at any screen size: nothing scrolls sideways,
an element is fully on screen without scrolling, axe-core finds no serious or critical
problem; and where their screenshots go.

axe-core is vendored (tests/e2e/vendor/axe.min.js, see its README) and injected as an init
script, which the pages' Content-Security-Policy does not apply to: no network at test time.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

VIEWPORTS: dict[str, dict[str, int]] = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
PHONES = ("390x844", "360x740")
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SERIOUS = {"serious", "critical"}


def screenshot_dir() -> Path:
    """ROSBI_SCREENSHOT_DIR, else var/screenshots (CI keeps them as artefacts: .ci/run)."""
    path = Path(os.environ.get("ROSBI_SCREENSHOT_DIR") or "var/screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def shoot(page, name: str, *, full_page: bool = False) -> None:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
    page.screenshot(path=str(screenshot_dir() / f"{safe}.png"), full_page=full_page)


def session_context(
    chromium, base: str, user, viewport: dict[str, int], language: str = "en", *, axe: bool = False
):
    """A browser context logged in as ``user`` (None: anonymous) in ``language``."""
    from django.conf import settings
    from django.test import Client

    context = chromium.new_context(viewport=viewport, locale="en-GB", reduced_motion="reduce")
    host = base.split("/")[2].split(":")[0]
    cookies = {settings.LANGUAGE_COOKIE_NAME: language}
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": k, "value": v, "domain": host, "path": "/"} for k, v in cookies.items()]
    )
    if axe:
        context.add_init_script(path=str(AXE))
    return context


SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  const scroll = document.scrollingElement.scrollWidth;
  if (scroll <= width) return null;
  // Name the widest culprits (elements sticking out on the right), for the failure message.
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && r.width > 0) {
      let inner = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") { inner = true; break; }
      }
      if (!inner) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(r.right)}`);
    }
  }
  return { width, scroll, culprits: out.slice(0, 6) };
}"""


def sideways_scroll(page) -> dict[str, Any] | None:
    """None when the page is no wider than the screen, else its width and what sticks out."""
    return page.evaluate(SIDEWAYS)


ON_SCREEN = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5
      && r.right <= document.documentElement.clientWidth + 0.5;
    // Not covered: the element (or a child) is what a tap at its middle would hit.
    const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 12), r.top + r.height / 2);
    out.push({ inside, hit: Boolean(hit && el.contains(hit)),
               box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)] });
  }
  return { scrollY: window.scrollY, items: out };
}"""


def fully_visible(page, selector: str) -> tuple[bool, dict[str, Any]]:
    """Whether at least one element matching ``selector`` is wholly on the first screen (the
    page at its top) and not covered; the measurements for a failure message."""
    found = page.evaluate(ON_SCREEN, selector)
    ok = found["scrollY"] == 0 and any(i["inside"] and i["hit"] for i in found["items"])
    return ok, found


def axe_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2 A/AA and
    best practices), one line each with the first offending elements."""
    result = page.evaluate(
        """async () => {
          const r = await window.axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " + (n.failureSummary || "").split("\\n").slice(1, 2).join("")) }));
        }"""
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} -> {v['nodes']}"
        for v in result
        if v["impact"] in SERIOUS
    ]
