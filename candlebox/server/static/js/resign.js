// Resign from the game page (issue 36's re-trial: a new player found no way to leave a game but the
// lobby's "Your games"). Your seat's tools in the Players panel offer "Resign"; it asks again in the
// panel (no window.confirm: a page's own question is read by screen readers and styled like the
// rest), by keyboard too, the focus moving to the answer and back. A yes posts the lobby's
// POST /api/games/{id}/resign; the server's next frame is the game's end, and its end screen.

import { api } from "./api.js";
import { keepRefusal, keptLine } from "./refusals.js";
import { h } from "./ui.js";

const state = { asking: false, focus: null }; // kept across the panel's redraws (a frame each move)

/** Your seat's Resign button, or its question with Yes and Cancel; ``redraw`` draws the panel again. */
export function controls({ gameId, token, redraw }) {
  const again = (asking, focus) => () => {
    state.asking = asking;
    state.focus = focus;
    redraw();
  };
  if (!state.asking) {
    const resign = h("button.small.subtle", { type: "button", dataset: { leave: "resign" }, onclick: again(true, "yes") }, "Resign");
    focusLater(resign, "resign");
    return [resign, keptLine("resign", resign)]; // a refused resignation: under the button, until the next try
  }
  const yes = h("button.small.danger", { type: "button", dataset: { confirm: "resign" }, onclick: () => resign(gameId, token, redraw) }, "Yes, resign");
  const cancel = h("button.small", { type: "button", onclick: again(false, "resign") }, "Cancel");
  const asked = h("div.resign-ask", { role: "group", "aria-label": "Resign this game?" },
    h("span.resign-question", { role: "status" }, "Resign? The game ends now with you last."), yes, cancel);
  asked.addEventListener("keydown", (event) => {
    if (event.key === "Escape") again(false, "resign")();
  });
  focusLater(yes, "yes");
  return [asked];
}

async function resign(gameId, token, redraw) {
  keepRefusal("resign", null);
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/resign`, { method: "POST", token });
  } catch (err) {
    keepRefusal("resign", err);
  }
  state.asking = false;
  state.focus = null;
  redraw();
}

/** The button a key press put on screen takes the focus once it is in the page. */
function focusLater(button, name) {
  if (state.focus !== name) return;
  state.focus = null;
  setTimeout(() => button.focus());
}
