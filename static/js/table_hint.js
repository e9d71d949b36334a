// Hint mode at casual tables (docs/protocol.md, "hint"): the Hint button asks the server for
// the expert bot's card for this player's turn; the answer names the card and one line of
// reasoning in the page's language. Refusals (rated tables, tournaments) arrive as ordinary
// `error` frames, which the table client already shows. The button shows only while it is
// this player's turn; the suggested card is marked in the hand until the next frame.
//
// It follows the table client (static/js/table.js) through its `rosbi:frame` events and
// sends through `window.rosbiTable.send`; it changes none of the client's state.

const root = document.getElementById("table-app");
const table = window.rosbiTable;
const button = root && root.querySelector("[data-action=hint]");

function myTurn() {
  const deal = table.state && table.state.deal;
  return Boolean(deal && deal.legal_moves && deal.legal_moves.length > 0);
}

function mark(move) {
  for (const card of root.querySelectorAll("[data-card].hinted")) card.classList.remove("hinted");
  if (!move) return;
  const card = root.querySelector(`[data-ref=hand] [data-card="${CSS.escape(move)}"]`);
  if (card) card.classList.add("hinted");
}

if (root && table && button) {
  let asked = 0;
  let waiting = null;
  button.addEventListener("click", () => {
    asked += 1;
    waiting = `hint-${asked}`;
    if (table.send({ type: "hint", id: waiting })) button.disabled = true;
  });
  root.addEventListener("rosbi:frame", (event) => {
    const frame = event.detail;
    if (frame.type === "hint" && frame.id === waiting) {
      waiting = null;
      table.showHandMessage(frame.reason);
      mark(frame.move);
    } else if (frame.type === "error" && frame.id === waiting) {
      waiting = null;
    } else if (frame.type === "event" || frame.type === "snapshot") {
      mark(null);
    }
    button.hidden = !myTurn();
    button.disabled = waiting !== null;
  });
  button.hidden = !myTurn();
}
