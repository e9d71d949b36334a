// Replay of a finished Partie: steps through the RULES.md Partie record move by move.
//
// The record holds hands and moves only, so this file re-derives who played each move, the
// tricks, the Hundred total, the layout rows and each deal's penalties (RULES.md sections
// 2-4). tests/e2e checks `replayDeal` against the Python engine on random deals.

import {
  cardName,
  cardSlotSvg,
  cardSvg,
  escapeXml,
  RANKS,
  rankValue,
  seatLabel,
  SUITS,
  sortHand,
  suitIcon,
} from "./cards.js";
import { shortName } from "./table.js";

export const CONTRACTS = [
  "no_tricks",
  "no_hearts",
  "no_jacks",
  "no_king_of_hearts",
  "hundred",
  "rosbiratschka",
];
const TRICK_CONTRACTS = new Set(CONTRACTS.slice(0, 4));
const HUNDRED_VALUES = { 6: 0, 7: 0, 8: 0, 9: 0, T: 10, J: 2, Q: 3, K: 4, A: 11 };
const HAND_SIZES = { 3: 8, 4: 8, 5: 7, 6: 6 };
const SLAM = -8;

function trickWeights(players) {
  const weights = new Array(HAND_SIZES[players]).fill(1);
  if (players === 5) weights[weights.length - 1] = 2;
  if (players === 6) weights[0] = weights[weights.length - 1] = 2;
  return weights;
}

function heartsInPack(players) {
  return { 3: 6, 4: 8, 5: 9, 6: 9 }[players];
}

/** Penalties of a finished trick deal from the cards each seat took (RULES.md section 4). */
function trickPenalties(contract, players, taken, tricksWon, trickPoints, doubling) {
  const n = players;
  let base;
  let nothing;
  if (contract === "no_king_of_hearts") {
    return taken.map((cards) => (cards.includes("KH") ? 8 : 0));
  }
  if (contract === "no_tricks") {
    if (Math.max(...tricksWon) === HAND_SIZES[n]) return tricksWon.map((c) => (c ? SLAM : 0));
    base = [...trickPoints];
    nothing = tricksWon.map((c) => c === 0);
  } else if (contract === "no_hearts") {
    const hearts = taken.map((cards) => cards.filter((c) => c[1] === "H"));
    const all = heartsInPack(n);
    const slammer = hearts.findIndex((h) => h.length === all);
    if (slammer >= 0) return hearts.map((_, s) => (s === slammer ? SLAM : 0));
    base = hearts.map((h) =>
      n === 3 ? h.length + h.filter((c) => c === "AH" || c === "KH").length : h.length,
    );
    nothing = hearts.map((h) => h.length === 0);
  } else {
    const jacks = taken.map((cards) => cards.filter((c) => c[0] === "J").length);
    if (Math.max(...jacks) === 4) return jacks.map((j) => (j === 4 ? SLAM : 0));
    base = jacks.map((j) => 2 * j);
    nothing = jacks.map((j) => j === 0);
  }
  if (doubling && nothing.some(Boolean)) return base.map((b) => 2 * b);
  return base;
}

/**
 * Every step of one deal record: step 0 is the deal as dealt, step k the table after k
 * moves. Each step has hands, turn, current trick, tricks, Hundred total, rows and, at the
 * end, penalties.
 */
export function replayDeal(record, doubling = true) {
  const n = record.players;
  const contract = record.contract;
  const hands = record.hands.map((h) => [...h]);
  const rows = { C: null, S: null, H: null, D: null };
  const taken = hands.map(() => []);
  const tricksWon = new Array(n).fill(0);
  const trickPoints = new Array(n).fill(0);
  const hundredScored = new Array(n).fill(0);
  const weights = trickWeights(n);
  const tricks = [];
  let trick = [];
  let turn = (record.dealer + 1) % n;
  let total = 0;
  let penalties = null;
  const snap = (last) => ({
    last,
    hands: hands.map((h) => [...h]),
    turn: penalties ? null : turn,
    currentTrick: trick.map((x) => [...x]),
    tricks: tricks.map((t) => ({ ...t, cards: [...t.cards] })),
    tricksWon: [...tricksWon],
    hundredTotal: total,
    rows: JSON.parse(JSON.stringify(rows)),
    penalties: penalties && [...penalties],
  });
  const steps = [snap(null)];
  for (const move of record.moves) {
    if (penalties) break;
    const seat = turn;
    if (move !== "pass") {
      const at = hands[seat].indexOf(move);
      if (at >= 0) hands[seat].splice(at, 1);
    }
    if (TRICK_CONTRACTS.has(contract)) {
      trick.push([seat, move]);
      if (trick.length === n) {
        const led = trick[0][1][1];
        let winner = trick[0][0];
        let best = -1;
        for (const [s, c] of trick) {
          if (c[1] === led && rankValue(c) > best) {
            best = rankValue(c);
            winner = s;
          }
        }
        const cards = trick.map(([, c]) => c);
        tricks.push({ leader: trick[0][0], cards, winner });
        taken[winner].push(...cards);
        tricksWon[winner] += 1;
        trickPoints[winner] += weights[tricks.length - 1];
        trick = [];
        turn = winner;
        const last = tricks.length === weights.length;
        if (last || (contract === "no_king_of_hearts" && cards.includes("KH"))) {
          penalties = trickPenalties(contract, n, taken, tricksWon, trickPoints, doubling);
        }
      } else {
        turn = (seat + 1) % n;
      }
    } else if (contract === "hundred") {
      const before = total;
      total += HUNDRED_VALUES[move[0]];
      if (before <= 25 && total > 25) hundredScored[seat] += 1;
      if (before <= 50 && total > 50) hundredScored[seat] += 2;
      if (before <= 100 && total > 100) hundredScored[seat] += 5;
      if (total > 100 || hands.every((h) => h.length === 0)) penalties = [...hundredScored];
      turn = (seat + 1) % n;
    } else {
      if (move !== "pass") {
        const suit = move[1];
        const row = rows[suit];
        if (move[0] === "J") rows[suit] = [move, move];
        else if (row && rankValue(move) < rankValue(row[0])) row[0] = move;
        else if (row) row[1] = move;
      }
      const holding = hands.filter((h) => h.length > 0).length;
      if (holding <= 1) {
        penalties = hands.map((h) => (h.length > 0 ? 8 : 0));
      } else {
        turn = (seat + 1) % n;
        while (hands[turn].length === 0) turn = (turn + 1) % n;
      }
    }
    steps.push(snap([seat, move]));
  }
  return steps;
}

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));
}

/** The layout row's ranks with this many players (the pack's lowest rank upwards). */
function rowRanks(players, suit) {
  let low = { 3: "9", 4: "7", 5: "6", 6: "6" }[players];
  if (players === 5 && suit === "D") low = "7";
  return RANKS.slice(RANKS.indexOf(low));
}

class ReplayApp {
  constructor(root, data) {
    this.root = root;
    this.look = root.dataset.cardLook === "french" ? "french" : "german";
    this.labels = JSON.parse(document.getElementById("game-labels").textContent);
    this.record = data.partie_record;
    this.seats = data.seats || [];
    const doubling = !this.record.rules || this.record.rules.doubling !== false;
    this.deals = this.record.deals.map((d) => replayDeal(d, doubling));
    this.dealIndex = 0;
    this.step = 0;
    this.refs = {};
    for (const el of root.querySelectorAll("[data-ref]")) this.refs[el.dataset.ref] = el;
    this.refs["deal-select"].innerHTML = this.record.deals
      .map((d, k) => `<option value="${k}">${k + 1}. ${escapeXml(this.t(`contract_${d.contract}`))}</option>`)
      .join("");
    this.refs["deal-select"].addEventListener("change", (e) => this.go(Number(e.target.value), 0));
    root.querySelector("[data-action=prev]").addEventListener("click", () => this.move(-1));
    root.querySelector("[data-action=next]").addEventListener("click", () => this.move(1));
    root.querySelector("[data-action=start]").addEventListener("click", () => this.go(this.dealIndex, 0));
    root.querySelector("[data-action=end]").addEventListener("click", () =>
      this.go(this.dealIndex, this.deals[this.dealIndex].length - 1),
    );
    this.refs.slider.addEventListener("input", (e) => this.go(this.dealIndex, Number(e.target.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input[type=text], textarea, select")) return;
      if (event.key === "ArrowRight") this.move(1);
      else if (event.key === "ArrowLeft") this.move(-1);
      else if (event.key === "Home") this.go(this.dealIndex, 0);
      else if (event.key === "End") this.go(this.dealIndex, this.deals[this.dealIndex].length - 1);
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

  /** One step forward or back, crossing into the next or previous deal at the ends. */
  move(delta) {
    const steps = this.deals[this.dealIndex];
    const next = this.step + delta;
    if (next >= 0 && next < steps.length) this.go(this.dealIndex, next);
    else if (next < 0 && this.dealIndex > 0) this.go(this.dealIndex - 1, this.deals[this.dealIndex - 1].length - 1);
    else if (next >= steps.length && this.dealIndex < this.deals.length - 1) this.go(this.dealIndex + 1, 0);
  }

  go(dealIndex, step) {
    this.dealIndex = dealIndex;
    this.step = step;
    this.refs["deal-select"].value = String(dealIndex);
    const steps = this.deals[dealIndex];
    this.refs.slider.max = String(steps.length - 1);
    this.refs.slider.value = String(step);
    this.render();
  }

  card(code, extra = "") {
    const name = cardName(code, this.look, this.labels.cards_names);
    return `<div class="pcard ${extra}" data-card="${code}" title="${escapeXml(name)}">${cardSvg(code, this.look, { title: name })}</div>`;
  }

  render() {
    const record = this.record.deals[this.dealIndex];
    const steps = this.deals[this.dealIndex];
    const s = steps[this.step];
    const n = record.players;
    this.refs.contract.textContent = this.t(`contract_${record.contract}`);
    this.refs["step-label"].textContent = `${this.t("move")} ${this.step} / ${steps.length - 1}`;
    let lastText = "";
    if (s.last) {
      const [seat, move] = s.last;
      lastText =
        move === "pass"
          ? `${this.seatName(seat)}: ${this.t("passed")}`
          : this.t("played", { seat: this.seatName(seat), card: cardName(move, this.look, this.labels.cards_names) });
    }
    this.refs["last-move"].textContent = lastText;
    // Centre: the trick, the Hundred pile or the rows, like the live table.
    let centre;
    if (TRICK_CONTRACTS.has(record.contract)) {
      let cards = s.currentTrick;
      let winner = null;
      if (!cards.length && s.tricks.length) {
        const t = s.tricks[s.tricks.length - 1];
        cards = t.cards.map((c, i) => [(t.leader + i) % n, c]);
        winner = t.winner;
      }
      centre = `<div class="trick-area">${[...Array(n).keys()]
        .map((seat) => {
          const angle = ((90 + (seat * 360) / n) * Math.PI) / 180;
          const x = 50 + 34 * Math.cos(angle);
          const y = 50 + 30 * Math.sin(angle);
          const played = cards.find(([p]) => p === seat);
          const cls = winner === null ? "" : `trick-done${winner === seat ? " trick-winner" : ""}`;
          const body = played ? this.card(played[1], cls) : `<div class="pcard empty">${cardSlotSvg()}</div>`;
          return `<div class="trick-slot${s.turn === seat ? " on-turn" : ""}" style="left:${x}%;top:${y}%">${body}<span class="trick-label">${escapeXml(this.seatName(seat))}</span></div>`;
        })
        .join("")}</div>`;
    } else if (record.contract === "hundred") {
      const played = steps.slice(1, this.step + 1).map((x) => x.last[1]).slice(-8);
      const percent = Math.min(100, (s.hundredTotal / 120) * 100);
      centre =
        `<div class="hundred"><div class="pile">${played
          .map((c, i) => `<div class="pile-card" style="--i:${i};--r:${(i % 5) * 4 - 8}deg">${this.card(c)}</div>`)
          .join("")}</div><div class="hundred-total"><span class="muted">${escapeXml(this.t("pile_total"))}</span>` +
        `<strong>${s.hundredTotal}</strong></div><div class="meter"><div class="meter-fill" style="width:${percent}%"></div>` +
        [25, 50, 100]
          .map((m) => `<span class="meter-mark${s.hundredTotal > m ? " passed" : ""}" style="left:${(m / 120) * 100}%"><span>${m}</span></span>`)
          .join("") +
        `</div></div>`;
    } else {
      centre = `<div class="layout-rows">${SUITS.split("")
        .map((suit) => {
          const row = s.rows[suit];
          const ranks = rowRanks(n, suit);
          const cells = [...ranks]
            .map((rank) => {
              const code = rank + suit;
              const laid = row && rankValue(code) >= rankValue(row[0]) && rankValue(code) <= rankValue(row[1]);
              const jack = rank === "J" ? " row-jack" : "";
              return `<div class="row-cell${jack}">${laid ? this.card(code) : `<div class="pcard empty">${cardSlotSvg()}</div>`}</div>`;
            })
            .join("");
          return `<div class="layout-row"><span class="row-suit">${suitIcon(suit, this.look, 22)}</span><div class="row-cells" style="--pad:${5 - ranks.indexOf("J")}">${cells}</div></div>`;
        })
        .join("")}</div>`;
    }
    if (s.penalties) {
      centre += `<p class="centre-banner">${escapeXml(this.t("deal_over"))}: ${s.penalties.join(" · ")}</p>`;
    }
    this.refs.centre.innerHTML = centre;
    // Every hand, face up: a replay hides nothing.
    this.refs.hands.innerHTML = s.hands
      .map(
        (hand, seat) =>
          `<div class="replay-hand${s.turn === seat ? " on-turn" : ""}"><span class="seat-label">${escapeXml(this.seatName(seat))}` +
          `${record.dealer === seat ? ` <span class="seat-dealer" title="${escapeXml(this.t("dealer"))}">D</span>` : ""}</span>` +
          `<div class="mini-cards">${sortHand(hand).map((c) => this.card(c)).join("")}</div></div>`,
      )
      .join("");
    for (const row of this.refs.sheet.querySelectorAll("tbody tr")) {
      row.classList.toggle("current", Number(row.dataset.deal) === this.dealIndex);
    }
  }

  renderSheet() {
    const n = this.record.players;
    const seats = [...Array(n).keys()];
    const penalties = this.deals.map((steps) => steps[steps.length - 1].penalties);
    const totals = seats.map((s) => penalties.reduce((sum, p) => sum + (p ? p[s] : 0), 0));
    const placeOf = (t) => 1 + totals.filter((o) => o < t).length;
    const head = `<thead><tr><th scope="col">${escapeXml(this.t("contract"))}</th>${seats
      .map((s) => {
        const names = this.seats.map((x) => seatLabel(x, this.labels));
        const base =
          seatLabel(this.seats.find((x) => x.seat === s), this.labels) || this.t("seat_n", { n: s + 1 });
        return `<th scope="col" title="${escapeXml(this.seatName(s))}">${escapeXml(shortName(base, names, s))}</th>`;
      })
      .join("")}</tr></thead>`;
    const body = this.record.deals
      .map(
        (d, k) =>
          `<tr data-deal="${k}"><th scope="row">${escapeXml(this.t(`contract_${d.contract}`))}</th>${seats
            .map((s) => `<td>${penalties[k] ? penalties[k][s] : ""}</td>`)
            .join("")}</tr>`,
      )
      .join("");
    const foot =
      `<tfoot><tr class="totals"><th scope="row">${escapeXml(this.t("total"))}</th>${totals.map((t) => `<td>${t}</td>`).join("")}</tr>` +
      `<tr class="places"><th scope="row">${escapeXml(this.t("place"))}</th>${totals
        .map((t) => `<td class="place-${placeOf(t)}">${placeOf(t)}.</td>`)
        .join("")}</tr></tfoot>`;
    this.refs.sheet.innerHTML = head + `<tbody>${body}</tbody>` + foot;
  }
}

const root = typeof document !== "undefined" ? document.getElementById("replay-app") : null;
if (root) {
  const dataEl = document.getElementById("replay-data");
  const data = dataEl ? JSON.parse(dataEl.textContent) : null;
  if (data && data.partie_record) window.rosbiReplay = new ReplayApp(root, data);
}
