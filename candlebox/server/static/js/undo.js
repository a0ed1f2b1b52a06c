// Take-backs (issue 35): the "Take back" button for the seat that may take back its last moves
// (frame.undoable, worked out by the server), and the request banner the other players answer
// (frame.take_back). POST /api/games/{id}/undo, .../undo/accept, .../undo/refuse, each with
// {expect: the move shown}; the server's snapshots bring the result to every page.

import { api } from "./api.js";
import { keepRefusal, keptLine } from "./refusals.js";
import { clear, h, plural, toast } from "./ui.js";

let busy = false;
let drawn = null; // the last render's [frame, opts]: a refusal draws the bar again with its line
const KEY = "take-back"; // the refusal of a request or an answer, kept until the next one
let refusedAt = null; // the move on screen when it came: the game's next move makes it old news

/** Fill #take-back for ``frame``: the button, the request waiting, or nothing. */
export function render(frame, opts) {
  const box = document.getElementById("take-back");
  if (!box) return;
  drawn = [frame, opts];
  if (refusedAt !== null && frame.move !== refusedAt) forget();
  clear(box);
  fill(box, frame, opts);
  // a refused request whose button is gone (the game moved on, the request answered): its line alone
  if (box.hidden && !opts.replaying && frame.you !== null) {
    const line = keptLine(KEY);
    if (line) box.append(line);
    box.hidden = !line;
  }
}

function fill(box, frame, { gameId, token, replaying }) {
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
      box.append(keptLine(KEY, box.querySelector(".take-back-answers button")));
    } else {
      const line = keptLine(KEY);
      if (line) box.append(line);
    }
    box.hidden = false;
    return;
  }
  if (!frame.undoable) {
    box.hidden = true;
    return;
  }
  const label = takeBackLabel(frame.undoable, frame.undoable_own);
  const button = h("button.small.take-back-button", { type: "button", onclick: () => send("") }, label);
  box.append(button, keptLine(KEY, button));
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
  forget();
  const path = `/api/games/${encodeURIComponent(gameId)}/undo${what ? `/${what}` : ""}`;
  try {
    const done = await api(path, { method: "POST", token, body: { expect: move } });
    if (what === "" && done.asked) toast("Asked the other players to let you take back.");
    if (what === "refuse") toast("Refused: every move stands.");
  } catch (err) {
    keepRefusal(KEY, err); // beside the button that asked, not a notice elsewhere
    refusedAt = drawn ? drawn[0].move : null;
  } finally {
    busy = false;
  }
  if (drawn) render(...drawn);
}

function forget() {
  keepRefusal(KEY, null);
  refusedAt = null;
}
