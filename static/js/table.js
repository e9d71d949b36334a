// The live table client: websocket protocol, table state, and rendering.
//
// Protocol (docs/protocol.md): the server sends a `snapshot`, then `event` frames with
// consecutive `version`s. `applyEvent` below must give exactly the same state as the
// backend's games/live/state.py apply_event, so a client that applied frames 1..n holds what
// a fresh snapshot at n would hold. A gap in versions makes the client send `sync`.
// The client knows no rule: the engine's facts (legal moves, tricks and their winners, the
// layout row a card changed, the ranks each row can hold) come in the frames, and
// `applyEvent` copies them.
//
// The module is also imported on its own (tests compare applyEvent with the Python one), so
// it only starts the UI when the page has a #table-app element.

import {
  cardName,
  cardSvg,
  cardSlotSvg,
  escapeXml,
  seatLabel,
  sortHand,
  suitIcon,
  SUITS,
} from "./cards.js";

export const CONTRACTS = [
  "no_tricks",
  "no_hearts",
  "no_jacks",
  "no_king_of_hearts",
  "hundred",
  "rosbiratschka",
];

// ------------------------------------------------------------------ pure state logic

const SILENCE_MS = 5000;
const DEAL_PAUSE_KEY = "rosbi.dealPauseSeconds";
const DEFAULT_DEAL_PAUSE_SECONDS = 4;

/** How long a finished deal stays on show: the player's choice, kept in this browser. */
export function dealPauseMs() {
  const stored = window.localStorage ? window.localStorage.getItem(DEAL_PAUSE_KEY) : null;
  const seconds = stored === null ? DEFAULT_DEAL_PAUSE_SECONDS : Number(stored);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_DEAL_PAUSE_SECONDS * 1000;
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The table state a snapshot frame describes (frames keep their own field names). */
export function stateFromSnapshot(frame) {
  return {
    version: frame.version,
    you: clone(frame.you),
    table: clone(frame.table),
    partie: clone(frame.partie),
    deal: clone(frame.deal),
    clock: clone(frame.clock ?? null),
    votes: clone(frame.votes ?? noVotes()),
    rematch_table_id: frame.rematch_table_id ?? null,
    moderator: Boolean(frame.moderator),
    invitations: clone(frame.invitations ?? []),
  };
}

/** No seat has voted to abort or for a rematch. */
export function noVotes() {
  return { abort: [], rematch: [] };
}

function withoutInvitation(state, userId) {
  state.invitations = (state.invitations || []).filter((i) => i.user_id !== userId);
}

// The field each kind gained when the server began to send the layout rows' facts; events
// stored before lack it (games/live/state.py FACT_FIELDS).
const DEAL_FACTS = ["family", "hundred_calls", "hundred_pack_total", "row_ranks"];
const FACT_FIELDS = { deal_started: DEAL_FACTS, move: ["row"] };

/** Thrown by `applyEvent` for an event stored before its kind carried its facts. */
export class OutdatedEvent extends Error {}

/** True for a `deal_started` or `move` event without its fact field: ask for a sync (the
 * server answers with a snapshot). */
export function isOutdated(ev) {
  return (FACT_FIELDS[ev.kind] || []).some((field) => !(field in ev));
}

function applyMove(deal, ev) {
  const { seat, move } = ev;
  deal.history.push([seat, move]);
  if (move !== "pass") {
    if (deal.seat === seat) {
      const at = deal.hand.indexOf(move);
      if (at >= 0) deal.hand.splice(at, 1);
    }
    deal.hand_sizes[seat] -= 1;
    if (deal.family === "tricks") {
      deal.current_trick.push([seat, move]);
      if (ev.trick !== null && ev.trick !== undefined) {
        deal.tricks.push(clone(ev.trick));
        deal.tricks_won[ev.trick.winner] += 1;
        deal.current_trick = [];
      }
    }
  }
  // The layout row the card changed, as the engine has it after the move.
  if (ev.row !== null) deal.rows[ev.row.suit] = [ev.row.low, ev.row.high];
  deal.turn = ev.next_turn;
  deal.legal_moves = clone(ev.legal_moves);
  deal.hundred_total = ev.hundred_total;
  deal.scores_so_far = clone(ev.scores_so_far);
  deal.over = ev.deal_over;
  deal.penalties = ev.penalties === null ? null : clone(ev.penalties);
}

/**
 * Apply one `event` frame to a state and return the new state (the input is not changed).
 * Mirrors games/live/state.py apply_event line by line: frames without a version (chat)
 * leave the state as it is; an unknown kind throws; an outdated event throws `OutdatedEvent`
 * (the caller then asks for a sync).
 */
export function applyEvent(state, frame) {
  if (frame.version === null || frame.version === undefined) return state;
  if (isOutdated(frame.event)) {
    throw new OutdatedEvent(`${frame.event.kind} event ${frame.version} lacks its facts`);
  }
  const next = clone(state);
  const ev = frame.event;
  const table = next.table;
  switch (ev.kind) {
    case "partie_started":
      table.status = "playing";
      table.seats = clone(ev.seats);
      next.partie = {
        first_dealer: ev.first_dealer,
        deal_number: null,
        score_sheet: [],
        totals: new Array(table.size).fill(0),
        places: null,
        resigned: [],
      };
      next.invitations = [];
      break;
    case "deal_started":
      next.partie.deal_number = ev.deal_number;
      next.deal = {
        players: table.size,
        contract: ev.contract,
        dealer: ev.dealer,
        rules: clone(table.rules),
        seat: next.you.seat,
        hand: clone(ev.hand),
        turn: ev.turn,
        legal_moves: clone(ev.legal_moves),
        hand_sizes: clone(ev.hand_sizes),
        history: [],
        current_trick: [],
        tricks: [],
        tricks_won: new Array(table.size).fill(0),
        scores_so_far: new Array(table.size).fill(0),
        hundred_total: 0,
        rows: { C: null, S: null, H: null, D: null },
        over: false,
        penalties: null,
        ...Object.fromEntries(DEAL_FACTS.map((key) => [key, clone(ev[key])])),
      };
      break;
    case "move":
      applyMove(next.deal, ev);
      // The clock after the move rides in the move event (older stored moves lack it).
      if ("clock" in ev) next.clock = clone(ev.clock);
      break;
    case "deal_finished":
      next.partie.score_sheet.push(clone(ev.penalties));
      next.partie.totals = clone(ev.totals);
      break;
    case "partie_finished":
      table.status = "finished";
      next.partie.totals = clone(ev.totals);
      next.partie.places = clone(ev.places);
      next.partie.score_sheet = clone(ev.score_sheet);
      break;
    case "seat_changed":
      table.seats[ev.seat] = {
        seat: ev.seat,
        name: ev.name,
        user_id: ev.user_id,
        bot_level: ev.bot_level,
        away: ev.away,
      };
      if (ev.user_id !== null) withoutInvitation(next, ev.user_id); // an invitee sat down
      break;
    case "owner_changed":
      table.owner_user_id = ev.owner_user_id;
      break;
    case "table_closed":
      table.status = "closed";
      next.invitations = [];
      break;
    case "player_resigned":
      next.partie.resigned = [...new Set([...next.partie.resigned, ev.seat])].sort((a, b) => a - b);
      break;
    case "vote":
      if (!next.votes) next.votes = noVotes();
      next.votes[ev.vote] = clone(ev.votes);
      break;
    case "table_aborted":
      table.status = "aborted";
      next.deal = null;
      next.clock = null;
      next.votes = noVotes();
      break;
    case "rematch_declined":
      if (!next.votes) next.votes = noVotes();
      next.votes.rematch = [];
      break;
    case "rematch_started":
      next.rematch_table_id = ev.table_id;
      break;
    case "player_invited":
      withoutInvitation(next, ev.user_id);
      next.invitations.push({ user_id: ev.user_id, name: ev.name, seat: ev.seat });
      break;
    case "invitation_declined":
      withoutInvitation(next, ev.user_id);
      break;
    case "clock":
      next.clock =
        ev.deadline === null
          ? null
          : { seat: ev.seat, deadline: ev.deadline, seconds: ev.seconds };
      break;
    default:
      throw new Error(`unknown event kind ${ev.kind}`);
  }
  next.version = frame.version;
  return next;
}

// ------------------------------------------------------------------ helpers for the view

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));
}

/** Seat index as seen from the viewer: 0 is the viewer (bottom), then clockwise. */
export function relativeSeat(seat, viewerSeat, players) {
  return (seat - (viewerSeat ?? 0) + players) % players;
}

/** Where a seat's trick card goes, in percent of the trick area: you at the bottom. */
export function trickPosition(seat, viewerSeat, players) {
  const r = relativeSeat(seat, viewerSeat, players);
  const angle = ((90 + (r * 360) / players) * Math.PI) / 180;
  // Five or six seats need a wider ellipse so neighbouring cards do not overlap.
  const rx = players >= 5 ? 40 : 34;
  const ry = players >= 5 ? 34 : 30;
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

// ------------------------------------------------------------------ the UI

class TableApp {
  constructor(root) {
    this.root = root;
    this.look = root.dataset.cardLook === "french" ? "french" : "german";
    this.labels = JSON.parse(document.getElementById("game-labels").textContent);
    this.wsUrl = absoluteWsUrl(root.dataset.wsUrl, root.dataset.tableId);
    this.refs = {};
    for (const el of root.querySelectorAll("[data-ref]")) this.refs[el.dataset.ref] = el;
    this.state = null;
    this.socket = null;
    this.retries = 0;
    this.syncing = false;
    this.moveCounter = 0;
    this.pendingMove = null;
    this.dealResult = null; // a finished deal on show (holdDealResult)
    this.heldFrames = [];
    this.closedForGood = false;
    this.chat = [];
    this.bindControls();
    this.connect();
    this.clockTimer = window.setInterval(() => this.renderClock(), 200);
  }

  t(key, values = {}) {
    return format(this.labels[key] ?? key, values);
  }

  // ---------------------------------------------------------------- connection

  connect() {
    this.setConnection(this.t("connecting"), "connecting");
    const socket = new WebSocket(this.wsUrl);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.setConnection(this.t("connected"), "ok");
      // After a reconnect the server may also send a snapshot; sync makes sure nothing is lost.
      if (this.state) this.send({ type: "sync", version: this.state.version });
      this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), 25000);
      this.lastFrameAt = Date.now();
      this.silenceTimer = window.setInterval(() => this.syncAfterSilence(), 1000);
    });
    socket.addEventListener("message", (message) => {
      this.lastFrameAt = Date.now();
      this.onFrame(JSON.parse(message.data));
    });
    socket.addEventListener("close", (close) => this.onClose(close));
  }

  /**
   * While a Partie is played, frames come every few seconds. After SILENCE_MS without one the
   * client asks for what it may have missed (docs/protocol.md: a broadcast lost while Redis
   * restarted leaves no gap to notice until the next event).
   */
  syncAfterSilence() {
    if (!this.state || this.state.table.status !== "playing") return;
    if (Date.now() - this.lastFrameAt < SILENCE_MS) return;
    this.lastFrameAt = Date.now();
    this.send({ type: "sync", version: this.state.version });
  }

  onClose(close) {
    window.clearInterval(this.pingTimer);
    window.clearInterval(this.silenceTimer);
    this.syncing = false;
    this.pendingMove = null;
    if (close.code === 4401 || close.code === 4403 || close.code === 4404) {
      this.closedForGood = true;
      this.setConnection(this.t(`closed_${close.code}`), "error");
      this.showError(this.t(`closed_${close.code}`));
      return;
    }
    // Exponential backoff with jitter, capped, so a restarting server is not stampeded.
    const delay = Math.min(15000, 500 * 2 ** this.retries) * (0.75 + Math.random() / 2);
    this.retries += 1;
    this.setConnection(this.t("reconnecting", { seconds: Math.ceil(delay / 1000) }), "error");
    window.setTimeout(() => this.connect(), delay);
    this.render();
  }

  send(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  onFrame(frame) {
    this.handleFrame(frame);
    // The table's extras (static/js/table_extras.js: actions, sounds, motion, moderation)
    // follow every frame after the table has taken it.
    this.root.dispatchEvent(new CustomEvent("rosbi:frame", { detail: frame }));
  }

  handleFrame(frame) {
    switch (frame.type) {
      case "snapshot":
        window.clearTimeout(this.dealResultTimer);
        this.dealResult = null;
        this.heldFrames = [];
        this.state = stateFromSnapshot(frame);
        this.syncing = false;
        this.pendingMove = null;
        this.showChatHistory(frame.chat || []);
        this.mutes = frame.mutes || []; // who is muted here (kept up to date by table_extras.js)
        this.render();
        break;
      case "event":
        this.onEvent(frame);
        break;
      case "ack":
        // The ack can overtake the move's own event (the event comes through the group):
        // keep the hand locked until the state has reached the acknowledged version.
        if (this.pendingMove && this.pendingMove.id === frame.id) {
          if (this.state && this.state.version >= frame.version) this.pendingMove = null;
          else this.pendingMove.ackVersion = frame.version;
        }
        this.render();
        break;
      case "error":
        if (!this.pendingMove || this.pendingMove.id === frame.id) this.pendingMove = null;
        // A stale move is answered by a fresh snapshot right away: nothing for a person to do.
        // A card the rules refuse is explained next to the hand, where the player looks.
        if (frame.code === "illegal") this.showHandMessage(frame.message);
        else if (frame.code !== "stale") this.showError(frame.message || frame.code);
        this.render();
        break;
      default:
        break; // pong and anything newer
    }
  }

  onEvent(frame) {
    if (frame.event && frame.event.kind === "chat") {
      this.addChat(frame.event);
      return;
    }
    // While a finished deal's result is on show, what follows waits its turn (in order).
    if (this.dealResult) {
      this.heldFrames.push(frame);
      return;
    }
    if (!this.state || frame.version === null || frame.version === undefined) return;
    if (frame.version <= this.state.version) return; // already applied (resent or replayed)
    if (frame.version !== this.state.version + 1) {
      if (!this.syncing) {
        this.syncing = true;
        this.send({ type: "sync", version: this.state.version });
      }
      return;
    }
    this.syncing = false;
    try {
      this.state = applyEvent(this.state, frame);
    } catch (error) {
      if (error instanceof OutdatedEvent) {
        // Stored before the server sent its facts: a sync over it brings a fresh snapshot.
        this.syncing = true;
        this.send({ type: "sync", version: this.state.version });
        return;
      }
      // A kind this client does not know (a newer server): keep the state, move the version on
      // so the next frames still apply, and say so in the console for whoever debugs it.
      console.warn("rosbi: skipped an event frame", frame, error);
      this.state = { ...this.state, version: frame.version };
    }
    const kind = frame.event && frame.event.kind;
    this.announceEvent(frame.event);
    if (kind === "deal_finished") this.holdDealResult(frame.event);
    if (kind === "owner_changed") this.showError(this.t("owner_changed", { name: frame.event.name }));
    if (kind === "table_closed") this.showError(this.t("table_closed"));
    const pending = this.pendingMove;
    if (pending) {
      const mine =
        frame.event.kind === "move" && this.state.deal && frame.event.seat === this.state.deal.seat;
      const acked = pending.ackVersion !== undefined && this.state.version >= pending.ackVersion;
      if (mine || acked) this.pendingMove = null;
    }
    this.render();
  }

  playMove(move) {
    if (!this.state || this.pendingMove) return;
    this.moveCounter += 1;
    const id = `c-${this.moveCounter}`;
    const frame = { type: "move", move, version: this.state.version, id };
    if (this.send(frame)) {
      this.pendingMove = { id, move };
      this.hideError();
      if (this.refs["hand-message"]) this.refs["hand-message"].hidden = true;
      this.render();
    }
  }

  // ---------------------------------------------------------------- controls

  bindControls() {
    const root = this.root;
    const pause = root.querySelector("[data-ref=deal-pause]");
    if (pause) {
      pause.value = String(dealPauseMs() / 1000);
      pause.addEventListener("change", () => {
        window.localStorage.setItem(DEAL_PAUSE_KEY, pause.value);
      });
    }
    this.refs.hand.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-card]");
      if (!button || button.disabled) return;
      // Enter/Space give a click with detail 0: a keyboard player gets the focus back on the
      // hand at their next turn, a mouse or touch player is left alone.
      this.autoFocus = event.detail === 0;
      this.playMove(button.dataset.card);
    });
    this.refs.hand.addEventListener("keydown", (event) => this.onHandKey(event));
    root.querySelector("[data-action=pass]").addEventListener("click", (event) => {
      this.autoFocus = event.detail === 0;
      this.playMove("pass");
    });
    root.querySelector("[data-action=back]").addEventListener("click", () => this.send({ type: "back" }));
    root
      .querySelector("[data-action=last-trick]")
      .addEventListener("click", () => this.toggleLastTrick());
    for (const toggle of root.querySelectorAll("[data-toggle-panel]")) {
      toggle.addEventListener("click", () => this.togglePanel(toggle.dataset.togglePanel));
    }
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.openPanel) {
        const name = this.openPanel;
        this.togglePanel(null);
        root.querySelector(`[data-toggle-panel=${name}]`).focus();
        return;
      }
      const typing = event.target.closest && event.target.closest("input, textarea, select");
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "l" || event.key === "L") {
        event.preventDefault();
        this.toggleLastTrick();
      }
    });
    const invite = root.querySelector("[data-action=copy-invite]");
    if (invite) {
      invite.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(invite.dataset.invite);
          invite.textContent = this.t("copied");
        } catch (error) {
          window.prompt(this.t("copy"), invite.dataset.invite);
        }
      });
    }
    this.refs["chat-form"].addEventListener("submit", (event) => {
      event.preventDefault();
      const input = this.refs["chat-form"].elements.text;
      const text = input.value.trim();
      if (!text) return;
      if (this.send({ type: "chat", channel: this.chatChannel(), text })) input.value = "";
    });
  }

  onHandKey(event) {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(event.key)) return;
    this.autoFocus = true;
    const cards = [
      ...this.refs.hand.querySelectorAll("button[data-card]:not([disabled]):not([aria-disabled=true])"),
    ];
    if (!cards.length) return;
    event.preventDefault();
    let index = cards.indexOf(document.activeElement);
    if (event.key === "Home") index = 0;
    else if (event.key === "End") index = cards.length - 1;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") index = index <= 0 ? cards.length - 1 : index - 1;
    else index = index < 0 || index >= cards.length - 1 ? 0 : index + 1;
    this.focusCard(cards[index]);
  }

  focusCard(button) {
    for (const other of this.refs.hand.querySelectorAll("button[data-card]")) other.tabIndex = -1;
    button.tabIndex = 0;
    button.focus();
    this.focusedCard = button.dataset.card;
  }

  /**
   * On narrow screens the score sheet and the chat are a drawer: open one panel (closing the
   * other) or none. On wide screens both are always shown and the toggles are hidden (CSS).
   */
  togglePanel(name) {
    const next = name && this.openPanel !== name ? name : null;
    this.openPanel = next;
    const column = this.root.querySelector(".side-column");
    column.classList.toggle("open", next !== null);
    for (const panel of column.querySelectorAll("[data-panel]")) {
      panel.classList.toggle("open", panel.dataset.panel === next);
    }
    for (const toggle of this.root.querySelectorAll("[data-toggle-panel]")) {
      toggle.setAttribute("aria-expanded", String(toggle.dataset.togglePanel === next));
    }
    if (next === "chat") this.refs["chat-unread"].hidden = true;
    if (next) {
      const heading = column.querySelector(`[data-panel=${next}] h2`);
      heading.tabIndex = -1;
      heading.focus();
    }
  }

  /** Tell screen readers what just happened at the table: a card played, whose turn it is. */
  announceEvent(ev) {
    if (!ev || !this.state) return;
    const parts = [];
    if (ev.kind === "move") {
      const seat = this.seatName(ev.seat);
      parts.push(
        ev.move === "pass"
          ? this.t("seat_passed", { seat })
          : this.t("played", { seat, card: cardName(ev.move, this.look, this.labels.cards_names) }),
      );
      if (ev.trick) parts.push(this.t("taken_by", { name: this.seatName(ev.trick.winner) }));
    } else if (ev.kind === "deal_started") {
      parts.push(this.t("deal_of", { n: ev.deal_number + 1 }), this.t(`contract_${ev.contract}`));
    } else if (ev.kind === "deal_finished") {
      parts.push(this.t("deal_over"));
    } else if (ev.kind === "partie_finished" && this.state.partie && this.state.partie.places) {
      parts.push(this.t("partie_over"), this.winnersText(this.state.partie));
    } else {
      return;
    }
    const deal = this.state.deal;
    if (deal && !deal.over && deal.turn !== null && deal.turn !== undefined) {
      parts.push(this.isMe(deal.turn) ? this.t("your_turn") : this.t("turn_of", { name: this.seatName(deal.turn) }));
    }
    this.refs.announce.textContent = parts.join(". ");
  }

  chatChannel() {
    return this.state && this.state.you && this.state.you.role === "player" ? "players" : "spectators";
  }

  toggleLastTrick() {
    const dialog = this.refs["last-trick-dialog"];
    if (dialog.open) {
      dialog.close();
      return;
    }
    const deal = this.state && this.state.deal;
    const trick = deal && deal.tricks.length ? deal.tricks[deal.tricks.length - 1] : null;
    const box = this.refs["last-trick-cards"];
    if (!trick) {
      box.innerHTML = `<p class="muted">${escapeXml(this.t("no_last_trick"))}</p>`;
    } else {
      const n = deal.players;
      box.innerHTML =
        trick.cards
          .map((code, i) => {
            const seat = (trick.leader + i) % n;
            const won = seat === trick.winner ? " won" : "";
            return (
              `<figure class="last-trick-card${won}">${cardSvg(code, this.look, {
                title: cardName(code, this.look, this.labels.cards_names),
              })}<figcaption>${escapeXml(this.seatName(seat))}</figcaption></figure>`
            );
          })
          .join("") +
        `<p class="last-trick-winner">${escapeXml(
          this.t("taken_by", { name: this.seatName(trick.winner) }),
        )}</p>`;
    }
    dialog.showModal();
  }

  // ---------------------------------------------------------------- rendering

  setConnection(text, kind) {
    const el = this.refs.connection;
    el.textContent = text;
    el.dataset.state = kind;
  }

  /**
   * Keep a finished deal on the table for a while: who took what, the deal's penalties and
   * the running totals, before the next deal replaces it (skippable; 0 s turns it off).
   */
  holdDealResult(event) {
    const pause = dealPauseMs();
    if (pause <= 0 || !this.state.deal) return;
    this.dealResult = { event, deal: clone(this.state.deal) };
    this.heldFrames = [];
    window.clearTimeout(this.dealResultTimer);
    this.dealResultTimer = window.setTimeout(() => this.releaseDealResult(), pause);
  }

  releaseDealResult() {
    if (!this.dealResult) return;
    window.clearTimeout(this.dealResultTimer);
    this.dealResult = null;
    const held = this.heldFrames;
    this.heldFrames = [];
    for (const frame of held) this.onEvent(frame);
    this.render();
  }

  renderDealResult() {
    const panel = this.refs["deal-result"];
    if (!panel) return;
    const shown = this.dealResult;
    panel.hidden = !shown;
    if (!shown) return;
    const { event, deal } = shown;
    const n = this.state.table.size;
    const tricks = deal.family === "tricks";
    const rows = [...Array(n).keys()]
      .map((seat) => {
        const took = tricks && deal.tricks_won ? deal.tricks_won[seat] : "";
        return (
          `<tr class="${this.isMe(seat) ? "is-me" : ""}"><th scope="row">${escapeXml(this.seatName(seat))}</th>` +
          `<td>${took}</td><td>${event.penalties[seat]}</td><td>${event.totals[seat]}</td></tr>`
        );
      })
      .join("");
    const names = [...Array(n).keys()].map((seat) => this.seatName(seat));
    const why = settlementText(event.settlement, deal.contract, names, (key, values) => this.t(key, values));
    panel.innerHTML =
      `<h3>${escapeXml(this.t("deal_over_title", { n: event.deal_number + 1, contract: this.t(`contract_${deal.contract}`) }))}</h3>` +
      (why ? `<p class="deal-settlement" data-ref="settlement">${escapeXml(why)}</p>` : "") +
      `<table class="score-sheet"><thead><tr><th scope="col"></th>` +
      `<th scope="col">${escapeXml(tricks ? this.t("tricks_taken") : "")}</th>` +
      `<th scope="col">${escapeXml(this.t("this_deal"))}</th><th scope="col">${escapeXml(this.t("total"))}</th>` +
      `</tr></thead><tbody>${rows}</tbody></table>` +
      `<button type="button" class="button big-touch" data-action="next-deal">${escapeXml(this.t("next_deal"))}</button>`;
    panel.querySelector("[data-action=next-deal]").addEventListener("click", () => this.releaseDealResult());
  }

  showHandMessage(message) {
    const el = this.refs["hand-message"];
    if (!el) return this.showError(message);
    el.textContent = message;
    el.hidden = false;
    window.clearTimeout(this.handMessageTimer);
    this.handMessageTimer = window.setTimeout(() => (el.hidden = true), 6000);
  }

  showError(message) {
    const el = this.refs.error;
    el.textContent = message;
    el.hidden = false;
    window.clearTimeout(this.errorTimer);
    this.errorTimer = window.setTimeout(() => this.hideError(), 8000);
  }

  hideError() {
    this.refs.error.hidden = true;
  }

  seat(seatNumber) {
    const seats = (this.state && this.state.table.seats) || [];
    return seats.find((s) => s.seat === seatNumber) || null;
  }

  seatName(seatNumber) {
    const seat = this.seat(seatNumber);
    let name = seatLabel(seat, this.labels) || this.t("seat_n", { n: seatNumber + 1 });
    // Three "Bot (heuristic)"s must still be told apart: add the seat number to twins.
    const twins = ((this.state && this.state.table.seats) || []).filter(
      (s) => seatLabel(s, this.labels) === name,
    );
    if (twins.length > 1) name = name.replace(/^(\S+)/, `$1 ${seatNumber + 1}`);
    return this.isMe(seatNumber) ? `${name} (${this.t("you")})` : name;
  }

  /** A plate-sized name: the first word ("Bot", "Anna"), with the seat number (1-based)
   * when two seats would read the same. The full name stays in titles and labels. */
  shortSeatName(seatNumber) {
    const seats = (this.state && this.state.table.seats) || [];
    const first = (seat) => (seatLabel(seat, this.labels) || "").split(/\s+/)[0];
    const mine = first(this.seat(seatNumber)) || this.t("seat_n", { n: seatNumber + 1 });
    const same = seats.filter((s) => first(s) === mine).length;
    return same > 1 ? `${mine} ${seatNumber + 1}` : mine;
  }

  isMe(seatNumber) {
    const you = this.state && this.state.you;
    return Boolean(you && you.role === "player" && you.seat === seatNumber);
  }

  viewerSeat() {
    const you = this.state && this.state.you;
    return you && you.role === "player" && you.seat !== null ? you.seat : 0;
  }

  render() {
    const state = this.state;
    if (!state) return;
    const { table, partie, deal } = state;
    const spectator = !state.you || state.you.role !== "player";
    this.root.classList.toggle("is-spectator", spectator);
    this.root.dataset.status = table.status;
    this.refs["table-name"].textContent = table.name;
    this.refs["table-name"].title = table.name;
    this.refs.watching.hidden = !spectator;
    this.refs["replay-link"].hidden = table.status !== "finished";
    const mySeat = !spectator ? this.seat(state.you.seat) : null;
    this.refs.away.hidden = !(mySeat && mySeat.away && table.status === "playing");
    this.refs.contract.textContent = deal ? this.t(`contract_${deal.contract}`) : "";
    this.refs.contract.hidden = !deal;
    this.refs["deal-number"].textContent =
      deal && partie ? this.t("deal_of", { n: partie.deal_number + 1 }) : "";
    const started = table.status !== "open" && table.status !== "waiting" && partie !== null;
    this.refs["pre-start"].hidden = started || table.status === "closed";
    if (this.refs["start-form"]) {
      this.refs["start-form"].hidden = table.owner_user_id !== state.you.user_id;
    }
    this.refs["chat-channel"].textContent = `(${this.t(`chat_${this.chatChannel()}`)})`;
    this.refs.felt.dataset.players = String(table.size);
    this.root.dataset.players = String(table.size);
    this.refs.felt.dataset.contract = deal ? deal.contract : "";
    this.renderSeats();
    this.renderCentre();
    this.renderHand(spectator);
    this.renderTurn();
    this.renderSheet();
    this.renderClock();
    this.renderDealResult();
    this.renderFinal();
    // The extras (static/js/table_extras.js) show their controls from the state drawn here:
    // frames held behind a finished deal's result are applied later, with no frame of their own.
    this.root.dispatchEvent(new CustomEvent("rosbi:render"));
  }

  renderSeats() {
    const { table, deal } = this.state;
    const n = table.size;
    const me = this.viewerSeat();
    const order = [];
    for (let r = 1; r <= n; r += 1) order.push((me + r) % n);
    const html = order.map((seatNumber) => {
      const seat = this.seat(seatNumber);
      const classes = ["seat-tag"];
      if (deal && deal.turn === seatNumber) classes.push("on-turn");
      if (this.isMe(seatNumber)) classes.push("is-me");
      if (seat && seat.away) classes.push("is-away");
      const rel = relativeSeat(seatNumber, me, n);
      classes.push(rel === 0 ? "pos-bottom" : "pos-top");
      const bits = [];
      const said = [];
      if (deal) {
        const cards = `${deal.hand_sizes[seatNumber]} ${this.t("cards")}`;
        said.push(cards);
        bits.push(`<span class="seat-cards" title="${escapeXml(cards)}">` +
          `<span class="mini-back" aria-hidden="true"></span>${deal.hand_sizes[seatNumber]}</span>`);
        if (deal.family === "tricks") {
          const tricks = `${deal.tricks_won[seatNumber]} ${this.t("tricks")}`;
          said.push(tricks);
          bits.push(`<span class="seat-tricks" title="${escapeXml(tricks)}">${deal.tricks_won[seatNumber]}` +
            `<span class="seat-word"> ${escapeXml(this.t("tricks"))}</span></span>`);
        }
        if (deal.dealer === seatNumber) {
          said.push(this.t("dealer"));
          bits.push(`<span class="seat-dealer" title="${escapeXml(this.t("dealer"))}">D</span>`);
        }
      }
      if (seat && seat.bot_level) bits.push(`<span class="seat-flag flag-bot">${escapeXml(this.t("bot"))}</span>`);
      if (seat && seat.away) {
        said.push(this.t("away"));
        bits.push(`<span class="seat-flag flag-away">${escapeXml(this.t("away"))}</span>`);
      }
      const named = seat && (seat.name || seat.user_id || seat.bot_level);
      const name = named ? this.seatName(seatNumber) : this.t("empty_seat");
      const short = named ? this.shortSeatName(seatNumber) : name;
      if (deal && deal.turn === seatNumber) said.push(this.t("on_turn"));
      // One accessible name for the plate (its parts are shown in two sizes, one at a time).
      const label = [name, ...said].join(", ");
      return (
        `<div class="${classes.join(" ")}" data-seat="${seatNumber}" style="--rel:${rel}" ` +
        `role="group" aria-label="${escapeXml(label)}" title="${escapeXml(name)}">` +
        `<span class="seat-name" aria-hidden="true">${escapeXml(name)}</span>` +
        `<span class="seat-short" aria-hidden="true">${escapeXml(short)}</span>` +
        `<span class="seat-info" aria-hidden="true">${bits.join("")}</span></div>`
      );
    });
    this.refs.seats.innerHTML = html.join("");
  }

  renderCentre() {
    const { deal, partie } = this.state;
    const centre = this.refs.centre;
    if (!deal) {
      centre.innerHTML = `<p class="centre-note">${escapeXml(this.t("waiting"))}</p>`;
      return;
    }
    if (deal.family === "tricks") centre.innerHTML = this.trickHtml(deal);
    else if (deal.contract === "hundred") centre.innerHTML = this.hundredHtml(deal);
    else centre.innerHTML = this.rowsHtml(deal);
    // Once the Partie is over the final screen (renderFinal) covers the felt.
    if (deal.over && !(partie && partie.places)) {
      centre.insertAdjacentHTML("beforeend", `<p class="centre-banner">${escapeXml(this.t("deal_over"))}</p>`);
    }
  }

  cardFigure(code, extraClass = "") {
    const name = cardName(code, this.look, this.labels.cards_names);
    return `<div class="pcard ${extraClass}" data-card="${code}" title="${escapeXml(name)}">` +
      `${cardSvg(code, this.look, { title: name })}</div>`;
  }

  trickHtml(deal) {
    const n = deal.players;
    const me = this.viewerSeat();
    let cards = deal.current_trick;
    let finished = null;
    // Right after a trick is taken the area would be empty: show that trick, marked, until
    // the next card is led, so nobody misses the last card of a trick.
    if (!cards.length && deal.tricks.length) {
      finished = deal.tricks[deal.tricks.length - 1];
      cards = finished.cards.map((code, i) => [(finished.leader + i) % n, code]);
    }
    const slots = [];
    for (let seat = 0; seat < n; seat += 1) {
      const { x, y } = trickPosition(seat, me, n);
      const played = cards.find(([s]) => s === seat);
      const won = finished && finished.winner === seat ? " trick-winner" : "";
      const body = played
        ? this.cardFigure(played[1], finished ? `trick-done${won}` : "")
        : `<div class="pcard empty">${cardSlotSvg()}</div>`;
      slots.push(
        `<div class="trick-slot${deal.turn === seat ? " on-turn" : ""}" style="left:${x}%;top:${y}%">` +
          `${body}<span class="trick-label" title="${escapeXml(this.seatName(seat))}">` +
          `${escapeXml(this.shortSeatName(seat))}</span></div>`,
      );
    }
    const note = finished
      ? `<p class="trick-note">${escapeXml(this.t("taken_by", { name: this.seatName(finished.winner) }))}</p>`
      : "";
    return `<div class="trick-area">${slots.join("")}${note}</div>`;
  }

  hundredHtml(deal) {
    const played = deal.history.map(([, code]) => code);
    const visible = played.slice(-8);
    const offset = played.length - visible.length;
    const pile = visible
      .map((code, i) => {
        const turnRight = ((offset + i) % 5) * 4 - 8;
        return `<div class="pile-card" style="--i:${i};--r:${turnRight}deg">${this.cardFigure(code)}</div>`;
      })
      .join("");
    const total = deal.hundred_total;
    const whole = deal.hundred_pack_total;
    const percent = Math.min(100, (total / whole) * 100);
    const marks = deal.hundred_calls
      .map((m) => `<span class="meter-mark${total > m ? " passed" : ""}" style="left:${(m / whole) * 100}%"><span>${m}</span></span>`)
      .join("");
    return (
      `<div class="hundred">` +
      `<div class="pile" aria-hidden="${played.length ? "false" : "true"}">${pile}</div>` +
      `<div class="hundred-total"><span class="muted">${escapeXml(this.t("pile_total"))}</span>` +
      `<strong data-ref="hundred-total">${total}</strong></div>` +
      `<div class="meter" role="meter" aria-valuemin="0" aria-valuemax="${whole}" aria-valuenow="${total}">` +
      `<div class="meter-fill" style="width:${percent}%"></div>${marks}</div></div>`
    );
  }

  rowsHtml(deal) {
    const rows = SUITS.split("")
      .map((suit) => {
        const row = deal.rows[suit];
        const ranks = deal.row_ranks[suit];
        // The row's laid cards run from its low to its high card (both sent by the server).
        const low = row ? ranks.indexOf(row[0][0]) : -1;
        const high = row ? ranks.indexOf(row[1][0]) : -2;
        const cells = ranks
          .map((rank, i) => {
            const code = rank + suit;
            const laid = i >= low && i <= high;
            const jack = rank === "J" ? " row-jack" : "";
            return laid
              ? `<div class="row-cell${jack}">${this.cardFigure(code)}</div>`
              : `<div class="row-cell${jack}"><div class="pcard empty">${cardSlotSvg()}</div></div>`;
          })
          .join("");
        // Jacks in the middle: the row grid is centred on the Jack column.
        const left = ranks.indexOf("J");
        return (
          `<div class="layout-row" style="--before:${left};--after:${ranks.length - left - 1}">` +
          `<span class="row-suit">${suitIcon(suit, this.look, 22)}</span>` +
          `<div class="row-cells" style="--pad:${5 - left}">${cells}</div></div>`
        );
      })
      .join("");
    return `<div class="layout-rows">${rows}</div>`;
  }

  renderHand(spectator) {
    const area = this.refs["hand-area"];
    const deal = this.state.deal;
    // After the Partie the (empty) hand gives its room to the final screen.
    area.hidden = spectator || !deal || Boolean(this.state.partie && this.state.partie.places);
    if (area.hidden) return;
    const legal = new Set(deal.legal_moves);
    const waiting = Boolean(this.pendingMove);
    const hadFocus = this.refs.hand.contains(document.activeElement);
    const cards = sortHand(deal.hand);
    const firstLegal = cards.find((c) => legal.has(c));
    const focusTarget = legal.has(this.focusedCard) ? this.focusedCard : firstLegal;
    this.refs.hand.innerHTML = cards
      .map((code) => {
        const ok = legal.has(code) && !waiting;
        // On your turn a card the rules refuse stays clickable: the server says why at once
        // (next to the hand). Off turn, or while a move is on its way, nothing is clickable.
        const askable = !ok && legal.size > 0 && !waiting;
        const name = cardName(code, this.look, this.labels.cards_names);
        return (
          `<button type="button" class="hand-card${ok ? " legal" : " dimmed"}" data-card="${code}" ` +
          `${ok || askable ? "" : "disabled"} ${askable ? 'aria-disabled="true"' : ""} ` +
          `tabindex="${code === focusTarget && ok ? 0 : -1}">` +
          // Named by hidden text, not aria-label: the card's printed index ("O", "10") is
          // then no visible text missing from its name (axe: label-content-name-mismatch).
          `<span class="visually-hidden">${escapeXml(name)}</span>${cardSvg(code, this.look)}</button>`
        );
      })
      .join("");
    this.refs.hand.classList.toggle("my-turn", legal.size > 0);
    this.refs.hand.style.setProperty("--n", String(Math.max(1, cards.length)));
    // The Hundred and the layout game have no tricks: no "last trick" to look at.
    this.root.querySelector("[data-action=last-trick]").hidden = deal.family !== "tricks";
    const pass = this.root.querySelector("[data-action=pass]");
    pass.hidden = !legal.has("pass");
    pass.disabled = waiting;
    if (hadFocus || (legal.size && !waiting && this.autoFocus)) {
      const target = this.refs.hand.querySelector(`button[data-card="${focusTarget}"]`);
      if (target && !target.disabled) target.focus();
      else if (!pass.hidden && !pass.disabled) pass.focus();
    }
  }

  renderTurn() {
    const { deal, partie } = this.state;
    const el = this.refs.turn;
    el.classList.remove("mine");
    if (partie && partie.places) {
      el.textContent = this.winnersText(partie);
      return;
    }
    if (!deal || deal.turn === null || deal.turn === undefined) {
      el.textContent = deal && deal.over ? this.t("deal_over") : "";
      return;
    }
    if (this.pendingMove) {
      el.textContent = this.t("sending");
    } else if (this.isMe(deal.turn)) {
      el.textContent = this.t("your_turn");
      el.classList.add("mine");
    } else {
      el.textContent = this.t("turn_of", { name: this.seatName(deal.turn) });
    }
  }

  /** Who won, from the places the server sent: "Anna wins!", or "Anna and Bert share first
   * place!" (names joined the page language's way). */
  winnersText(partie) {
    const best = Math.min(...partie.places);
    const winners = partie.places
      .map((p, seat) => (p === best ? this.seatName(seat) : null))
      .filter(Boolean);
    if (winners.length === 1) return this.t("winner", { name: winners[0] });
    return this.t("winners", { names: joinNames(winners) });
  }

  /**
   * The final screen over the felt once the Partie is over (and the sixth deal's result has
   * had its time): every seat's place and total, best first, the winners marked, the
   * viewer's own place, and the way on (rematch, replay, lobby). Places, totals and
   * resignations are the server's (partie_finished); nothing is worked out here.
   */
  renderFinal() {
    const panel = this.refs.final;
    if (!panel) return;
    const { table, partie } = this.state;
    const show = Boolean(partie && partie.places) && !this.dealResult;
    const appeared = show && panel.hidden;
    panel.hidden = !show;
    this.root.classList.toggle("partie-over", show);
    if (!show) return;
    const { places, totals } = partie;
    const resigned = new Set(partie.resigned || []);
    const best = Math.min(...places);
    const shared = (place) => places.filter((p) => p === place).length > 1;
    const order = [...places.keys()].sort((a, b) => places[a] - places[b] || a - b);
    this.refs["final-places"].innerHTML = order
      .map((seat) => {
        const place = places[seat];
        const classes = [place === best ? "final-winner" : "", this.isMe(seat) ? "is-me" : ""];
        const mark = place === best
          ? `<span class="final-mark" aria-hidden="true">★</span><span class="visually-hidden">${escapeXml(this.t("winner_mark"))}</span> `
          : "";
        // Equal places read the same; a screen reader is told the place is shared.
        const tie = shared(place) ? `<span class="visually-hidden"> (${escapeXml(this.t("shared_place"))})</span>` : "";
        const gone = resigned.has(seat) ? ` <span class="final-shared">(${escapeXml(this.t("resigned_seat"))})</span>` : "";
        return (
          `<tr class="${classes.join(" ").trim()}" data-seat="${seat}">` +
          `<td class="final-place"><span data-place>${place}</span>.${tie}</td>` +
          `<th scope="row">${mark}${escapeXml(this.seatName(seat))}${gone}</th>` +
          `<td class="final-total" data-total>${totals[seat]}</td></tr>`
        );
      })
      .join("");
    this.refs["final-winners"].textContent = this.winnersText(partie);
    const own = this.refs["final-own"];
    const you = this.state.you;
    const seated = you && you.role === "player" && you.seat !== null && you.seat !== undefined;
    own.hidden = !seated;
    if (seated) {
      const place = places[you.seat];
      const values = { place, players: table.size };
      if (place === best) own.textContent = shared(place) ? this.t("you_share_first") : this.t("you_won");
      else own.textContent = this.t(shared(place) ? "your_place_shared" : "your_place", values);
      own.classList.toggle("final-own-won", place === best);
    }
    // A keyboard player's focus was on the hand, now gone: it moves to the final screen.
    const active = document.activeElement;
    const lost = !active || active === document.body || this.refs["hand-area"].contains(active);
    if (appeared && lost) {
      const heading = panel.querySelector("h2");
      heading.tabIndex = -1;
      heading.focus();
    }
  }

  renderClock() {
    const clock = this.state && this.state.clock;
    const box = this.refs.clock;
    const deal = this.state && this.state.deal;
    const live = clock && clock.deadline && deal && !deal.over && this.state.table.status === "playing";
    box.hidden = !live;
    if (!live) return;
    // The server's deadline decides; the bar only shows what is left of it.
    const full = (clock.seconds || 0) * 1000;
    const left = Math.min(full, Math.max(0, Date.parse(clock.deadline) - Date.now()));
    const fraction = full ? left / full : 0;
    this.refs["clock-fill"].style.width = `${(fraction * 100).toFixed(1)}%`;
    box.classList.toggle("urgent", fraction < 0.25);
    box.classList.toggle("mine", this.isMe(clock.seat));
    const seconds = Math.ceil(left / 1000);
    this.refs["clock-seconds"].textContent = `${seconds} s`;
    this.refs["clock-seconds"].title = this.t("seconds_left");
  }

  renderSheet() {
    const { table, partie, deal } = this.state;
    const n = table.size;
    const seats = [...Array(n).keys()];
    const sheet = (partie && partie.score_sheet) || [];
    const head =
      `<thead><tr><th scope="col">${escapeXml(this.t("contract"))}</th>` +
      seats
        .map((s) => {
          // Narrow columns: a short name in the header, the full one as its title.
          const full = this.seatName(s);
          const base = seatLabel(this.seat(s), this.labels) || this.t("seat_n", { n: s + 1 });
          const names = (table.seats || []).map((x) => seatLabel(x, this.labels));
          const short = shortName(base, names, s, n >= 6 ? 4 : n === 5 ? 5 : 6);
          return `<th scope="col" class="${this.isMe(s) ? "is-me" : ""}" title="${escapeXml(full)}">${escapeXml(short)}</th>`;
        })
        .join("") +
      `</tr></thead>`;
    const rows = CONTRACTS.map((contract, k) => {
      let cells;
      let cls = "";
      if (k < sheet.length) {
        cells = sheet[k].map((p) => `<td>${p}</td>`).join("");
      } else if (deal && partie && k === partie.deal_number && !partie.places) {
        cls = "current";
        cells = deal.scores_so_far.map((p) => `<td class="so-far">${p || ""}</td>`).join("");
      } else {
        cells = seats.map(() => "<td></td>").join("");
      }
      return `<tr class="${cls}"><th scope="row">${escapeXml(this.t(`contract_${contract}`))}</th>${cells}</tr>`;
    }).join("");
    const totals = (partie && partie.totals) || seats.map(() => 0);
    let foot = `<tr class="totals"><th scope="row">${escapeXml(this.t("total"))}</th>${totals
      .map((v) => `<td>${v}</td>`)
      .join("")}</tr>`;
    if (partie && partie.places) {
      foot += `<tr class="places"><th scope="row">${escapeXml(this.t("place"))}</th>${partie.places
        .map((p) => `<td class="place-${p}">${p}.</td>`)
        .join("")}</tr>`;
    }
    this.refs.sheet.innerHTML = `${head}<tbody>${rows}</tbody><tfoot>${foot}</tfoot>`;
    const result = this.refs.result;
    result.hidden = !(partie && partie.places);
    if (!result.hidden) {
      result.textContent = `${this.t("partie_over")} ${this.refs.turn.textContent}`;
    }
  }

  /** The recent chat a snapshot carries (a reload or a late joiner sees the talk so far). */
  showChatHistory(lines) {
    this.chat = [];
    this.refs["chat-log"].replaceChildren();
    for (const line of lines) this.addChat(line);
  }

  addChat(ev) {
    this.chat.push(ev);
    if (this.chat.length > 200) this.chat.shift();
    const item = document.createElement("li");
    item.className = `chat-${ev.channel}`;
    if (ev.id !== undefined) item.dataset.chatId = String(ev.id);
    if (ev.author_id !== undefined) item.dataset.authorId = String(ev.author_id);
    const time = ev.at ? new Date(ev.at).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" }) : "";
    item.innerHTML =
      `<span class="chat-meta">${escapeXml(time)} · ${escapeXml(this.t(`chat_${ev.channel}`))}</span> ` +
      `<strong>${escapeXml(ev.author)}</strong> ${escapeXml(ev.text)}`;
    const log = this.refs["chat-log"];
    log.appendChild(item);
    while (log.children.length > 200) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
    if (this.openPanel !== "chat") this.refs["chat-unread"].hidden = false;
  }
}

/**
 * The deal result's sentence on why the deal counts as it does, from the `settlement` fact the
 * server's engine put into `deal_finished` (or the replay's deal): "Doubled: Anna took no
 * trick, so every trick counts twice." or the slam's; "" for plain costs (or older events
 * without the fact). `names[seat]` names each seat; `t(key, values)` reads the page's labels.
 */
export function settlementText(settlement, contract, names, t) {
  if (!settlement) return "";
  const who = joinNames(settlement.seats.map((seat) => names[seat]));
  return t(`${settlement.kind}_${contract}`, { who });
}

/** Names as one phrase in the page's language: "Anna, Bert and Carl", "Anna, Bert und Carl". */
export function joinNames(names) {
  const lang = document.documentElement.lang || "en";
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(names);
  } catch (error) {
    return names.join(", ");
  }
}

/** A header-sized name: the first word, abbreviated to `letters` characters with a full
 * stop when longer ("Maximiliane" -> "Maxim."), with the seat number (1-based) when two seats
 * would read the same (three "Bot"s). */
export function shortName(name, allNames, seat, letters = 6) {
  const cut = (text) => {
    const word = text.split(" ")[0];
    return word.length > letters ? `${word.slice(0, letters - 1)}.` : word;
  };
  const mine = cut(name);
  const same = allNames.filter((other) => cut(other) === mine).length;
  return same <= 1 ? mine : `${mine} ${seat + 1}`;
}

/** The websocket address: the server's `ws_url` (absolute or a path), else the default path.
 * The page's query string (an invite code) is passed on so private tables let us in. */
function absoluteWsUrl(given, tableId) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let url = given || `/ws/tables/${tableId}/`;
  if (url.startsWith("/")) url = `${scheme}://${window.location.host}${url}`;
  if (window.location.search && !url.includes("?")) url += window.location.search;
  return url;
}

const root = typeof document !== "undefined" ? document.getElementById("table-app") : null;
if (root) {
  window.rosbiTable = new TableApp(root);
}
