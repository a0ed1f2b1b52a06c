// Take-backs (issue 35): the "Take back" button for the seat that may take back its last moves
// (frame.undoable, worked out by the server), and the request banner the other players answer
// (frame.take_back). POST /api/games/{id}/undo, .../undo/accept, .../undo/refuse, each with
// {expect: the move shown}; the server's snapshots bring the result to every page.

import { api } from "./api.js";
import { clear, h, plural, toast } from "./ui.js";

let busy = false;

/** Fill #take-back for ``frame``: the button, the request waiting, or nothing. */
export function render(frame, { gameId, token, replaying }) {
  const box = document.getElementById("take-back");
  if (!box) return;
  clear(box);
  const request = frame.take_back;
  if (replaying || frame.over || frame.you === null) {
    box.hidden = true;
    return;
  }
  const send = (what) => answer(gameId, token, frame.move, what);
  if (request) {
    const mine = request.seat === frame.you;
    const moves = plural(request.moves, "move");
    const text = mine
      ? `You asked to take back ${moves}; waiting for the others to answer.`
      : `${request.name} asks to take back ${moves}.`;
    box.append(h("span.take-back-text", text));
    if (!mine && request.waiting.includes(frame.you)) {
      // the two answers wrap together (a phone puts them under the sentence, side by side)
      box.append(
        h(
          "span.take-back-answers",
          h("button.small.primary", { type: "button", onclick: () => send("accept") }, "Accept"),
          h("button.small", { type: "button", onclick: () => send("refuse") }, "Refuse"),
        ),
      );
    }
    box.hidden = false;
    return;
  }
  if (!frame.undoable) {
    box.hidden = true;
    return;
  }
  const label = takeBackLabel(frame.undoable, frame.undoable_own);
  box.append(h("button.small.take-back-button", { type: "button", onclick: () => send("") }, label));
  box.hidden = false;
}

/** The button's words in a player's terms: "Take back your last move (and the bots' 3 after it)";
 * the count alone counted the bots' replies as the player's moves (issue 36). */
export function takeBackLabel(moves, own) {
  if (!own || own > moves) return `Take back ${plural(moves, "move")}`;
  const yours = own === 1 ? "your last move" : `your last ${own} moves`;
  const replies = moves - own;
  if (!replies) return `Take back ${yours}`;
  return `Take back ${yours} (and ${plural(replies, "bot move")} after ${own === 1 ? "it" : "them"})`;
}

async function answer(gameId, token, move, what) {
  if (busy) return;
  busy = true;
  const path = `/api/games/${encodeURIComponent(gameId)}/undo${what ? `/${what}` : ""}`;
  try {
    const done = await api(path, { method: "POST", token, body: { expect: move } });
    if (what === "" && done.asked) toast("Asked the other players to let you take back.");
    if (what === "refuse") toast("Refused: every move stands.");
  } catch (err) {
    toast(err.message, "error");
  } finally {
    busy = false;
  }
}
