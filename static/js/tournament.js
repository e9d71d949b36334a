// Live tournament page: countdowns, and standings pushed over the websocket after each
// recompute. On any other change the round panel is refreshed by reloading the page.
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root) return;

  function tick() {
    const now = Date.now();
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.countdown) - now) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" : "") + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
    });
  }
  tick();
  setInterval(tick, 1000);

  function cell(text) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    return td;
  }

  function renderStandings(rows) {
    const body = root.querySelector("[data-standings]");
    if (!body || !rows.length) return;
    const duplicate = rows.some(function (r) { return r.percent !== null; });
    body.replaceChildren.apply(body, rows.map(function (r) {
      const tr = document.createElement("tr");
      [r.rank, r.name, r.points, r.penalty, r.opponents_points, r.table_wins].forEach(function (v) { tr.appendChild(cell(v)); });
      if (r.provisional) {
        // The table is still playing this round: the rank is provisional.
        tr.className = "provisional";
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = body.dataset.provisionalLabel || "";
        tr.children[1].append(" ", tag);
      }
      if (duplicate) tr.appendChild(cell(r.percent));
      return tr;
    }));
  }

  let delay = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + root.dataset.wsPath);
    socket.onopen = function () { delay = 1000; };
    socket.onmessage = function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "standings") renderStandings(frame.rows);
      else if (frame.type === "changed") setTimeout(function () { location.reload(); }, 300);
    };
    socket.onclose = function () { setTimeout(connect, delay); delay = Math.min(delay * 2, 30000); };
  }
  connect();
})();
