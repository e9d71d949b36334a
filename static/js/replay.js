// Replay of a finished Partie: draws, move by move, the steps the server computed with the
// rules engine (games/live/replay.py `replay_steps`, in the page's JSON data). A step holds
// every hand (a finished Partie hides nothing), the trick, the Hundred total, the layout rows
// and, at the end of a deal, its penalties; this file derives none of them.

import {
  cardName,
  cardSlotSvg,
  cardSvg,
  escapeXml,
  seatLabel,
  SUITS,
  sortHand,
  suitIcon,
} from "./cards.js";
import { settlementText, shortName } from "./table.js";

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));
}

class ReplayApp {
  constructor(root, data) {
    this.root = root;
    this.look = root.dataset.cardLook === "french" ? "french" : "german";
    this.labels = JSON.parse(document.getElementById("game-labels").textContent);
    this.players = data.partie_record.players;
    this.seats = data.seats || [];
    this.replay = data.replay_steps;
    this.deals = this.replay.deals;
    this.dealIndex = 0;
    this.step = 0;
    this.refs = {};
    for (const el of root.querySelectorAll("[data-ref]")) this.refs[el.dataset.ref] = el;
    this.refs["deal-select"].innerHTML = this.deals
      .map((d, k) => `<option value="${k}">${k + 1}. ${escapeXml(this.t(`contract_${d.contract}`))}</option>`)
      .join("");
    this.refs["deal-select"].addEventListener("change", (e) => this.go(Number(e.target.value), 0));
    root.querySelector("[data-action=prev]").addEventListener("click", () => this.move(-1));
    root.querySelector("[data-action=next]").addEventListener("click", () => this.move(1));
    root.querySelector("[data-action=start]").addEventListener("click", () => this.go(this.dealIndex, 0));
    root.querySelector("[data-action=end]").addEventListener("click", () => this.go(this.dealIndex, this.lastStep(this.dealIndex)));
    this.refs.slider.addEventListener("input", (e) => this.go(this.dealIndex, Number(e.target.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input[type=text], textarea, select")) return;
      if (event.key === "ArrowRight") this.move(1);
      else if (event.key === "ArrowLeft") this.move(-1);
      else if (event.key === "Home") this.go(this.dealIndex, 0);
      else if (event.key === "End") this.go(this.dealIndex, this.lastStep(this.dealIndex));
      else if (event.key === "PageDown") this.go(Math.min(this.deals.length - 1, this.dealIndex + 1), 0);
      else if (event.key === "PageUp") this.go(Math.max(0, this.dealIndex - 1), 0);
      else return;
      event.preventDefault();
    });
    this.renderSheet();
    this.go(0, 0);
  }

  t(key, values = {}) {
    return format(this.labels[key] ?? key, values);
  }

  seatName(seat) {
    const info = this.seats.find((s) => s.seat === seat);
    const name = seatLabel(info, this.labels) || this.t("seat_n", { n: seat + 1 });
    const twins = this.seats.filter((s) => seatLabel(s, this.labels) === name).length;
    return twins > 1 ? name.replace(/^(\S+)/, `$1 ${seat + 1}`) : name;
  }

  lastStep(dealIndex) {
    return this.deals[dealIndex].steps.length - 1;
  }

  /** One step forward or back, crossing into the next or previous deal at the ends. */
  move(delta) {
    const next = this.step + delta;
    if (next >= 0 && next <= this.lastStep(this.dealIndex)) this.go(this.dealIndex, next);
    else if (next < 0 && this.dealIndex > 0) this.go(this.dealIndex - 1, this.lastStep(this.dealIndex - 1));
    else if (next > this.lastStep(this.dealIndex) && this.dealIndex < this.deals.length - 1) this.go(this.dealIndex + 1, 0);
  }

  go(dealIndex, step) {
    this.dealIndex = dealIndex;
    this.step = step;
    this.refs["deal-select"].value = String(dealIndex);
    this.refs.slider.max = String(this.lastStep(dealIndex));
    this.refs.slider.value = String(step);
    this.render();
  }

  card(code, extra = "") {
    const name = cardName(code, this.look, this.labels.cards_names);
    return `<div class="pcard ${extra}" data-card="${code}" title="${escapeXml(name)}">${cardSvg(code, this.look, { title: name })}</div>`;
  }

  render() {
    const deal = this.deals[this.dealIndex];
    const steps = deal.steps;
    const s = steps[this.step];
    const n = this.players;
    this.root.dataset.deal = String(this.dealIndex);
    this.root.dataset.step = String(this.step);
    this.refs.contract.textContent = this.t(`contract_${deal.contract}`);
    this.refs["step-label"].textContent = `${this.t("move")} ${this.step} / ${steps.length - 1}`;
    let lastText = "";
    if (s.move !== null) {
      lastText =
        s.move === "pass"
          ? `${this.seatName(s.seat)}: ${this.t("passed")}`
          : this.t("played", { seat: this.seatName(s.seat), card: cardName(s.move, this.look, this.labels.cards_names) });
    }
    this.refs["last-move"].textContent = lastText;
    // Centre: the trick, the Hundred pile or the rows, like the live table.
    let centre;
    if (deal.family === "tricks") {
      // Right after a trick is taken, the finished trick stays on show, its winner marked.
      const shown = s.current_trick.length || !s.last_trick ? null : s.last_trick;
      const cards = shown ? shown.cards : s.current_trick;
      centre = `<div class="trick-area">${[...Array(n).keys()]
        .map((seat) => {
          const angle = ((90 + (seat * 360) / n) * Math.PI) / 180;
          const x = 50 + 34 * Math.cos(angle);
          const y = 50 + 30 * Math.sin(angle);
          const played = cards.find(([p]) => p === seat);
          const cls = shown ? `trick-done${shown.winner === seat ? " trick-winner" : ""}` : "";
          const body = played ? this.card(played[1], cls) : `<div class="pcard empty">${cardSlotSvg()}</div>`;
          return `<div class="trick-slot${s.turn === seat ? " on-turn" : ""}" style="left:${x}%;top:${y}%">${body}<span class="trick-label">${escapeXml(this.seatName(seat))}</span></div>`;
        })
        .join("")}</div>`;
    } else if (deal.family === "hundred") {
      const played = steps.slice(1, this.step + 1).map((x) => x.move).slice(-8);
      const total = s.hundred_total;
      const whole = deal.hundred_pack_total;
      const percent = Math.min(100, (total / whole) * 100);
      centre =
        `<div class="hundred"><div class="pile">${played
          .map((c, i) => `<div class="pile-card" style="--i:${i};--r:${(i % 5) * 4 - 8}deg">${this.card(c)}</div>`)
          .join("")}</div><div class="hundred-total"><span class="muted">${escapeXml(this.t("pile_total"))}</span>` +
        `<strong data-ref="hundred-total">${total}</strong></div><div class="meter"><div class="meter-fill" style="width:${percent}%"></div>` +
        deal.hundred_calls
          .map((m) => `<span class="meter-mark${total > m ? " passed" : ""}" style="left:${(m / whole) * 100}%"><span>${m}</span></span>`)
          .join("") +
        `</div></div>`;
    } else {
      centre = `<div class="layout-rows">${SUITS.split("")
        .map((suit) => {
          const row = s.rows[suit];
          const ranks = deal.row_ranks[suit];
          // The row's laid cards run from its low to its high card (both sent by the server).
          const low = row ? ranks.indexOf(row[0][0]) : -1;
          const high = row ? ranks.indexOf(row[1][0]) : -2;
          const cells = ranks
            .map((rank, i) => {
              const laid = i >= low && i <= high;
              const jack = rank === "J" ? " row-jack" : "";
              return `<div class="row-cell${jack}">${laid ? this.card(rank + suit) : `<div class="pcard empty">${cardSlotSvg()}</div>`}</div>`;
            })
            .join("");
          return `<div class="layout-row"><span class="row-suit">${suitIcon(suit, this.look, 22)}</span><div class="row-cells" style="--pad:${5 - ranks.indexOf("J")}">${cells}</div></div>`;
        })
        .join("")}</div>`;
    }
    if (s.penalties) {
      centre += `<p class="centre-banner" data-ref="penalties">${escapeXml(this.t("deal_over"))}: ${s.penalties.join(" · ")}</p>`;
      const names = [...Array(this.players).keys()].map((seat) => this.seatName(seat));
      const why = settlementText(deal.settlement, deal.contract, names, (key, values) => this.t(key, values));
      if (why) centre += `<p class="centre-banner deal-settlement" data-ref="settlement">${escapeXml(why)}</p>`;
    }
    this.refs.centre.innerHTML = centre;
    // Every hand, face up: a replay hides nothing.
    this.refs.hands.innerHTML = s.hands
      .map(
        (hand, seat) =>
          `<div class="replay-hand${s.turn === seat ? " on-turn" : ""}" data-seat="${seat}"><span class="seat-label">${escapeXml(this.seatName(seat))}` +
          `${deal.dealer === seat ? ` <span class="seat-dealer" title="${escapeXml(this.t("dealer"))}">D</span>` : ""}</span>` +
          `<div class="mini-cards">${sortHand(hand).map((c) => this.card(c)).join("")}</div></div>`,
      )
      .join("");
    for (const row of this.refs.sheet.querySelectorAll("tbody tr")) {
      row.classList.toggle("current", Number(row.dataset.deal) === this.dealIndex);
    }
  }

  renderSheet() {
    const seats = [...Array(this.players).keys()];
    const { totals, places } = this.replay;
    const names = this.seats.map((x) => seatLabel(x, this.labels));
    const head = `<thead><tr><th scope="col">${escapeXml(this.t("contract"))}</th>${seats
      .map((s) => {
        const base =
          seatLabel(this.seats.find((x) => x.seat === s), this.labels) || this.t("seat_n", { n: s + 1 });
        return `<th scope="col" title="${escapeXml(this.seatName(s))}">${escapeXml(shortName(base, names, s))}</th>`;
      })
      .join("")}</tr></thead>`;
    const body = this.deals
      .map(
        (d, k) =>
          `<tr data-deal="${k}"><th scope="row">${escapeXml(this.t(`contract_${d.contract}`))}</th>${seats
            .map((s) => `<td>${d.penalties ? d.penalties[s] : ""}</td>`)
            .join("")}</tr>`,
      )
      .join("");
    const foot =
      `<tfoot><tr class="totals"><th scope="row">${escapeXml(this.t("total"))}</th>${totals.map((t) => `<td>${t}</td>`).join("")}</tr>` +
      `<tr class="places"><th scope="row">${escapeXml(this.t("place"))}</th>${places
        .map((p) => `<td class="place-${p}">${p}.</td>`)
        .join("")}</tr></tfoot>`;
    this.refs.sheet.innerHTML = head + `<tbody>${body}</tbody>` + foot;
  }
}

const root = typeof document !== "undefined" ? document.getElementById("replay-app") : null;
if (root) {
  const dataEl = document.getElementById("replay-data");
  const data = dataEl ? JSON.parse(dataEl.textContent) : null;
  if (data && data.replay_steps) window.rosbiReplay = new ReplayApp(root, data);
}
