// Around the game at a live table: resign, abort, rematch and invitation controls, chat
// moderation (report a line, mute a player), and optional sound and motion.
//
// It follows the table client (static/js/table.js) through the `rosbi:frame` events that
// client dispatches after taking each frame and `rosbi:render` after each drawing, and reads
// its state (`window.rosbiTable.state`); it changes nothing of that state. The actions are the page's plain forms (POST, answered
// by a page with a message); reports and mutes are websocket frames answered by `done`
// (docs/protocol.md). Sounds are made with WebAudio (no audio files) and are off unless the
// player switches them on; played cards are animated (under 200 ms) unless the player or the
// system (prefers-reduced-motion) says no. The settings live in this browser (localStorage).

import { escapeXml } from "./cards.js";

export const SETTINGS = {
  "sound-turn": { key: "rosbi.soundTurn", fallback: false },
  "sound-clock": { key: "rosbi.soundClock", fallback: false },
  motion: { key: "rosbi.motion", fallback: true },
};
// The clock "runs low" below this share of the time per move (table.js marks it urgent too).
const LOW_CLOCK_SHARE = 0.25;
export const ANIMATION_MS = 180;

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));
}

/** A stored on/off setting of this browser (`SETTINGS`), or its default. */
export function setting(name) {
  const { key, fallback } = SETTINGS[name];
  const stored = window.localStorage ? window.localStorage.getItem(key) : null;
  return stored === null ? fallback : stored === "1";
}

export function storeSetting(name, on) {
  window.localStorage.setItem(SETTINGS[name].key, on ? "1" : "0");
}

/** Whether played cards move: the player's setting, unless the system asks for less motion. */
export function motionWanted() {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return setting("motion") && !reduced;
}

/** Short tones made on the spot with WebAudio: `turn` rises, `clock` ticks three times. */
export class Sounds {
  constructor() {
    this.context = null;
    this.played = []; // what was played, oldest first (the page and tests can look)
  }

  /** Browsers let a page make sound only after a gesture: called from the settings' clicks. */
  unlock() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume();
  }

  play(kind) {
    this.played.push(kind);
    document.getElementById("table-app")?.setAttribute("data-last-sound", kind);
    if (!this.context) this.unlock();
    const audio = this.context;
    if (!audio) return;
    const tones = kind === "turn" ? [[660, 0], [880, 0.12]] : [[440, 0], [440, 0.18], [440, 0.36]];
    for (const [frequency, at] of tones) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const start = audio.currentTime + at;
      oscillator.frequency.value = frequency;
      oscillator.type = "sine";
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.12);
    }
  }
}

class TableExtras {
  constructor(root, table) {
    this.root = root;
    this.table = table;
    this.labels = JSON.parse(document.getElementById("extras-labels").textContent);
    this.sounds = new Sounds();
    this.wasMyTurn = false;
    this.lowClockFor = null; // the deadline whose running low was already sounded
    this.counter = 0;
    this.pending = new Map(); // frame id -> what to say when it is done
    this.forms = {};
    for (const el of root.querySelectorAll("[data-extra]")) this.forms[el.dataset.extra] = el;
    this.bindSettings();
    this.bindForms();
    this.bindChat();
    root.addEventListener("rosbi:frame", (event) => this.onFrame(event.detail));
    root.addEventListener("rosbi:render", () => this.update());
    this.clockTimer = window.setInterval(() => this.checkClock(), 250);
    this.update();
  }

  t(key, values = {}) {
    return format(this.labels[key] ?? key, values);
  }

  state() {
    return this.table.state;
  }

  // ---------------------------------------------------------------- settings

  bindSettings() {
    for (const box of this.root.querySelectorAll("[data-setting]")) {
      const name = box.dataset.setting;
      box.checked = setting(name);
      box.addEventListener("change", () => {
        storeSetting(name, box.checked);
        if (box.checked && name.startsWith("sound")) this.sounds.unlock();
        this.root.classList.toggle("no-motion", !motionWanted());
      });
    }
    this.root.classList.toggle("no-motion", !motionWanted());
  }

  // ---------------------------------------------------------------- frames

  onFrame(frame) {
    if (frame.type === "event" && frame.event) this.onEvent(frame.event, frame.version);
    if (frame.type === "done" || frame.type === "error") this.onReply(frame);
    if (frame.type === "snapshot") this.table.mutes = frame.mutes || [];
    this.update();
  }

  onEvent(ev, version) {
    const table = this.table;
    switch (ev.kind) {
      case "move":
        if (ev.move !== "pass") this.animate(ev.move);
        break;
      case "player_resigned":
        table.showError(this.t("resigned", { name: ev.name }));
        break;
      case "table_aborted":
        table.showError(ev.by ? this.t("aborted_by", { name: ev.by }) : this.t("aborted"));
        break;
      case "vote":
        if (!this.isMe(ev.seat)) {
          table.showError(this.t(ev.vote === "abort" ? "vote_abort_by" : "vote_rematch_by", { name: ev.name }));
        }
        break;
      case "rematch_declined":
        table.showError(this.t("rematch_declined", { name: ev.name }));
        break;
      case "rematch_started":
        table.showError(this.t("rematch_started"));
        // Players go to their new table; spectators get the link.
        if (this.isPlayer() && version !== null) window.location.assign(`/tables/${ev.table_id}/`);
        break;
      case "player_invited":
        table.showError(this.t("invited", { name: ev.name }));
        break;
      case "invitation_declined":
        table.showError(this.t("invitation_declined", { name: ev.name }));
        break;
      case "mute": {
        const mutes = (table.mutes || []).filter((m) => m.user_id !== ev.user_id);
        if (ev.muted) mutes.push({ user_id: ev.user_id, name: ev.name });
        table.mutes = mutes;
        table.showError(this.t(ev.muted ? "muted" : "unmuted", { name: ev.name }));
        break;
      }
      default:
        break;
    }
  }

  onReply(frame) {
    const done = this.pending.get(frame.id);
    if (done === undefined) return;
    this.pending.delete(frame.id);
    if (frame.type === "done" && done) this.table.showError(done);
  }

  send(frame, doneMessage) {
    this.counter += 1;
    const id = `x-${this.counter}`;
    this.pending.set(id, doneMessage);
    this.table.send({ ...frame, id });
  }

  // ---------------------------------------------------------------- sounds and motion

  /** After each frame: a rising tone when the turn has just become this player's. */
  checkTurn() {
    const state = this.state();
    const deal = state && state.deal;
    const mine = Boolean(
      deal && !deal.over && state.table.status === "playing" && this.isPlayer() &&
      deal.turn === state.you.seat && deal.legal_moves.length,
    );
    if (mine && !this.wasMyTurn && setting("sound-turn")) this.sounds.play("turn");
    this.wasMyTurn = mine;
  }

  /** Every quarter second: three ticks, once per turn, when this player's time runs low. */
  checkClock() {
    const state = this.state();
    const clock = state && state.clock;
    if (!clock || !clock.deadline || !clock.seconds || !this.isMe(clock.seat)) return;
    const left = Date.parse(clock.deadline) - Date.now();
    if (left <= 0 || left > clock.seconds * 1000 * LOW_CLOCK_SHARE) return;
    if (this.lowClockFor === clock.deadline) return;
    this.lowClockFor = clock.deadline;
    if (setting("sound-clock")) this.sounds.play("clock");
  }

  /** The card just played slides into place (`.just-played`, ANIMATION_MS long). */
  animate(code) {
    if (!motionWanted()) return;
    const centre = this.root.querySelector("[data-ref=centre]");
    if (!centre) return;
    const figures = centre.querySelectorAll(`.pcard[data-card="${code}"]`);
    const card = figures[figures.length - 1];
    if (!card) return;
    card.classList.remove("just-played");
    void card.offsetWidth; // restart the animation if the same element is reused
    card.classList.add("just-played");
    window.setTimeout(() => card.classList.remove("just-played"), ANIMATION_MS + 50);
  }

  // ---------------------------------------------------------------- actions

  bindForms() {
    for (const form of Object.values(this.forms)) {
      if (form.tagName !== "FORM") continue;
      form.addEventListener("submit", (event) => {
        const ask = form.querySelector("[data-confirm]");
        if (ask && !window.confirm(ask.dataset.confirm)) event.preventDefault();
      });
    }
  }

  isPlayer() {
    const state = this.state();
    return Boolean(state && state.you && state.you.role === "player" && state.you.seat !== null);
  }

  isMe(seat) {
    const state = this.state();
    return this.isPlayer() && state.you.seat === seat;
  }

  moderator() {
    const state = this.state();
    if (!state || !state.you) return false;
    return Boolean(state.moderator) || (state.table.owner_user_id !== null && state.table.owner_user_id === state.you.user_id);
  }

  show(name, visible) {
    if (this.forms[name]) this.forms[name].hidden = !visible;
  }

  /** Show the controls that apply now, from the table's state alone. */
  update() {
    const state = this.state();
    this.checkTurn();
    if (!state) return;
    const { table, deal, partie } = state;
    const votes = state.votes || { abort: [], rematch: [] };
    const player = this.isPlayer();
    const humans = (table.seats || []).filter((s) => s.user_id !== null).length;
    const playing = table.status === "playing";
    const untouched = playing && partie && partie.deal_number === 0 && deal && deal.history.length === 0;
    const owner = table.owner_user_id !== null && table.owner_user_id === state.you.user_id;
    this.show("resign", player && playing);
    this.show("abort", player && untouched);
    const abortButton = this.root.querySelector("[data-ref=abort-button]");
    if (abortButton) {
      abortButton.textContent = owner
        ? this.t("abort")
        : this.t("vote_abort", { votes: votes.abort.length, players: humans });
      abortButton.disabled = !owner && votes.abort.includes(state.you.seat);
    }
    const finished = table.status === "finished";
    const rematchId = state.rematch_table_id;
    this.show("rematch", player && finished && rematchId === null);
    this.show("decline-rematch", player && finished && rematchId === null && votes.rematch.length > 0 && !votes.rematch.includes(state.you.seat));
    const rematchButton = this.root.querySelector("[data-ref=rematch-button]");
    if (rematchButton) {
      rematchButton.textContent = votes.rematch.length ? this.t("accept_rematch") : this.t("rematch");
      rematchButton.disabled = votes.rematch.includes(state.you.seat);
    }
    const link = this.forms["rematch-link"];
    if (link) {
      link.hidden = rematchId === null || rematchId === undefined;
      if (!link.hidden) link.href = `/tables/${rematchId}/`;
    }
    const status = this.root.querySelector("[data-ref=extras-status]");
    if (status) {
      status.textContent = finished && votes.rematch.length && rematchId === null
        ? this.t("rematch_votes", { votes: votes.rematch.length, players: humans })
        : "";
    }
    this.show("decline-invitation", !player && table.status === "open");
    this.updateInvite(state, player);
    this.decorateChat();
  }

  updateInvite(state, player) {
    const { table } = state;
    const open = table.status === "open";
    this.show("invite", open && player);
    const invitations = state.invitations || [];
    const held = new Set(invitations.map((i) => i.seat).filter((s) => s !== null));
    const select = this.root.querySelector("[data-ref=invite-seat]");
    if (select && open) {
      const chosen = select.value;
      const free = (table.seats || []).filter((s) => s.user_id === null && !s.bot_level && !held.has(s.seat));
      select.replaceChildren(select.options[0]);
      for (const seat of free) {
        const option = document.createElement("option");
        option.value = String(seat.seat);
        option.textContent = this.t("seat_n", { n: seat.seat + 1 });
        select.append(option);
      }
      select.value = free.some((s) => String(s.seat) === chosen) ? chosen : "";
    }
    const list = this.root.querySelector("[data-ref=invitations]");
    if (list) {
      const names = invitations.map((i) => (i.seat === null ? i.name : `${i.name} (${this.t("seat_n", { n: i.seat + 1 })})`));
      list.textContent = names.length ? this.t("invitations", { names: names.join(", ") }) : "";
    }
  }

  // ---------------------------------------------------------------- chat moderation

  bindChat() {
    const log = this.root.querySelector("[data-ref=chat-log]");
    if (!log) return;
    // Lines are added by table.js: give each its buttons as it arrives.
    new MutationObserver(() => this.decorateChat()).observe(log, { childList: true });
    log.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-chat-action]");
      if (!button) return;
      const line = button.closest("li");
      if (button.dataset.chatAction === "report") {
        const reason = window.prompt(this.t("report_reason"), "");
        if (reason === null) return;
        this.send({ type: "report", message_id: Number(line.dataset.chatId), reason }, this.t("reported"));
        button.disabled = true;
      } else {
        this.send({ type: button.dataset.chatAction, user_id: Number(line.dataset.authorId) }, "");
      }
    });
  }

  decorateChat() {
    const state = this.state();
    const log = this.root.querySelector("[data-ref=chat-log]");
    if (!state || !log) return;
    const me = state.you.user_id;
    const moderator = this.moderator();
    const muted = new Set((this.table.mutes || []).map((m) => m.user_id));
    for (const line of log.querySelectorAll("li[data-chat-id]")) {
      const author = Number(line.dataset.authorId);
      let tools = line.querySelector(".chat-tools");
      if (!tools) {
        tools = document.createElement("span");
        tools.className = "chat-tools";
        line.append(tools);
      }
      const name = line.querySelector("strong") ? line.querySelector("strong").textContent : "";
      const wanted = [];
      if (author !== me) {
        wanted.push(`<button type="button" class="link-button chat-report" data-chat-action="report" ` +
          `title="${escapeXml(this.t("report_title"))}">${escapeXml(this.t("report"))}</button>`);
        if (moderator) {
          const action = muted.has(author) ? "unmute" : "mute";
          wanted.push(`<button type="button" class="link-button chat-mute" data-chat-action="${action}" ` +
            `title="${escapeXml(this.t(`${action}_title`, { name }))}">${escapeXml(this.t(action))}</button>`);
        }
      }
      const html = wanted.join(" ");
      if (tools.dataset.html !== html) {
        tools.innerHTML = html;
        tools.dataset.html = html;
      }
    }
    const input = this.root.querySelector("#chat-text");
    if (input) {
      const silenced = muted.has(me);
      if (input.dataset.placeholder === undefined) input.dataset.placeholder = input.placeholder;
      input.disabled = silenced;
      input.placeholder = silenced ? this.t("you_are_muted") : input.dataset.placeholder;
    }
  }
}

const root = typeof document !== "undefined" ? document.getElementById("table-app") : null;
if (root && window.rosbiTable) {
  window.rosbiTableExtras = new TableExtras(root, window.rosbiTable);
}
