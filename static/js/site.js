// Small progressive enhancements; every page works without JavaScript.
document.addEventListener("DOMContentLoaded", () => {
  const toggle = document.querySelector(".nav-toggle");
  const nav = document.getElementById("site-nav");
  if (toggle && nav) {
    toggle.addEventListener("click", () => {
      const open = nav.classList.toggle("open");
      toggle.setAttribute("aria-expanded", String(open));
    });
  }
  // Switch language as soon as one is picked; the button stays for no-JS users.
  const select = document.getElementById("language-select");
  if (select) {
    select.addEventListener("change", () => select.form.submit());
  }
  // Print buttons (the printed seating lists and score sheets).
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
  // A wide table scrolls inside its own box on a small screen: such a box must be reachable
  // by keyboard (and named) to be scrolled without a mouse; one that fits is no tab stop.
  const wraps = document.querySelectorAll(".table-wrap");
  const markScrollable = () => {
    for (const wrap of wraps) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        const section = wrap.closest("section, article");
        const heading = section && section.querySelector("h1, h2, h3");
        wrap.tabIndex = 0;
        wrap.setAttribute("role", "region");
        if (heading) wrap.setAttribute("aria-label", heading.textContent.trim());
      } else if (wrap.hasAttribute("tabindex")) {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
      }
    }
  };
  if (wraps.length) {
    markScrollable();
    window.addEventListener("resize", markScrollable);
  }
  // The ranked queue: while waiting, look every 3 s whether a table was found.
  const queue = document.querySelector(".ladder-queue[data-waiting]");
  if (queue) {
    setInterval(async () => {
      const response = await fetch(queue.dataset.statusUrl, { credentials: "same-origin" });
      const status = await response.json();
      if (status.table_url) window.location = status.table_url;
    }, 3000);
  }
});
