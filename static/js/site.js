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
});
