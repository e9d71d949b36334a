// Lobby: keeps the list of open tables fresh (lobby websocket when the server offers it,
// else polling /lobby/tables.json) and copies invite links. The page works without it.

import { escapeXml, seatLabel } from "./cards.js";

const POLL_MS = 4000;

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.labels = JSON.parse(document.getElementById("lobby-labels").textContent);
    this.list = root.querySelector("[data-ref=table-list]");
    this.empty = root.querySelector("[data-ref=empty]");
    this.refreshed = root.querySelector("[data-ref=refreshed]");
    this.csrf = root.dataset.csrf;
    root.addEventListener("click", (event) => this.onClick(event));
    this.poll();
    this.timer = window.setInterval(() => this.poll(), POLL_MS);
    this.listen();
  }

  t(key, values = {}) {
    return format(this.labels[key] ?? key, values);
  }

  async poll() {
    if (document.hidden) return;
    try {
      const response = await fetch(this.root.dataset.tablesUrl, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (!response.ok) return;
      const data = await response.json();
      this.render(Array.isArray(data) ? data : data.tables || []);
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
  }

  /** The lobby group push, if the server has it; polling stays on as the safety net. */
  listen() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${window.location.host}${this.root.dataset.wsUrl}`);
    } catch (error) {
      return;
    }
    socket.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "tables") this.render(frame.tables || []);
      if (frame.type === "invitation") this.showInvitation(frame.invitation);
    });
    // The pings keep this player shown as online to the players who follow them.
    socket.addEventListener("open", () => {
      this.pingTimer = window.setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 25000);
    });
    socket.addEventListener("close", () => window.clearInterval(this.pingTimer));
  }

  /** An invitation that just arrived: on top of the list, with its Join and Decline forms. */
  showInvitation(invitation) {
    const list = this.root.querySelector("[data-ref=invitations]");
    if (!list || list.querySelector(`[data-invitation="${invitation.table_id}"]`)) return;
    const token = `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeXml(this.csrf)}">`;
    const url = `/tables/${invitation.table_id}/`;
    list.insertAdjacentHTML(
      "afterbegin",
      `<li class="table-item" data-invitation="${invitation.table_id}"><div class="table-item-head">` +
        `<strong>${escapeXml(invitation.table_name)}</strong><span class="muted" role="status">` +
        `${escapeXml(this.t("invited", { name: invitation.by, table: invitation.table_name }))}</span></div>` +
        `<div class="actions"><form method="post" action="${url}join/">${token}` +
        `<button class="button big-touch" type="submit">${escapeXml(this.t("join"))}</button></form>` +
        `<a class="button button-quiet big-touch" href="${url}">${escapeXml(this.t("open"))}</a>` +
        `<form method="post" action="${url}invitation/decline/">${token}` +
        `<button class="button button-quiet big-touch" type="submit">${escapeXml(this.t("decline"))}</button></form>` +
        `</div></li>`,
    );
    const empty = this.root.querySelector("[data-ref=no-invitations]");
    if (empty) empty.hidden = true;
  }

  render(tables) {
    this.empty.hidden = tables.length > 0;
    this.list.innerHTML = tables.map((table) => this.itemHtml(table)).join("");
    this.refreshed.textContent = this.t("updated", {
      time: new Date().toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
    });
  }

  itemHtml(table) {
    const seats = (table.seats || [])
      .map((seat) =>
        seat.name
          ? `<span>${escapeXml(seatLabel(seat, this.labels))}</span>`
          : `<span class="free">${escapeXml(this.t("free"))}</span>`,
      )
      .join("");
    const rules = table.rules || {};
    const facts = [
      this.t("players", { n: table.size }),
      rules.doubling === false ? this.t("no_doubling") : this.t("doubling"),
      rules.layout === "free" ? this.t("layout_free") : null,
      table.turn_seconds ? this.t("seconds", { s: table.turn_seconds }) : this.t("no_limit"),
      table.rated ? this.t("rated") : null,
    ]
      .filter(Boolean)
      .join(" · ");
    const url = `/tables/${table.id}/`;
    const me = Number(this.root.dataset.userId) || null;
    const seated = me !== null && (table.seats || []).some((seat) => seat.user_id === me);
    const free = (table.seats || []).some((seat) => !seat.name);
    const action = seated ? "leave" : "join";
    const join = this.labels.logged_in && (seated || free)
      ? `<form method="post" action="${url}${action}/"><input type="hidden" ` +
        `name="csrfmiddlewaretoken" value="${escapeXml(this.csrf)}"><button class="button ` +
        `${seated ? "button-quiet " : ""}big-touch" type="submit">` +
        `${escapeXml(this.t(action))}</button></form>`
      : "";
    return (
      `<li class="table-item" data-table-id="${table.id}">` +
      `<div class="table-item-head"><strong>${escapeXml(table.name)}</strong>` +
      `<span class="muted">${escapeXml(facts)}</span></div>` +
      `<div class="table-item-seats">${seats}</div>` +
      `<div class="actions"><a class="button button-quiet big-touch" href="${url}">` +
      `${escapeXml(this.t("open"))}</a>${join}` +
      `<button type="button" class="button button-quiet big-touch" data-copy="${url}">` +
      `${escapeXml(this.t("copy"))}</button><span class="copy-status" aria-live="polite"></span>` +
      `</div></li>`
    );
  }

  async onClick(event) {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const link = new URL(button.dataset.copy, window.location.origin).href;
    const status = button.parentElement.querySelector(".copy-status");
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = this.t("copied");
    } catch (error) {
      // No clipboard permission (plain http, old browser): show the link to copy by hand.
      status.textContent = link;
    }
  }
}

const root = document.getElementById("lobby-app");
if (root) window.rosbiLobby = new Lobby(root);
