// A refusal shown where the request was made (issue 36): the lobby's "too many games" came as a notice
// far below "Start the game", over "Your games", and its words ("you already have 10 games") did not
// match the two games that list showed: the server counts the live games started from a network
// address, whatever browser or account started them. The line sits under the button that asked, is
// read out when it fills (role "alert"), and says what is counted and what to do.

import { h } from "./ui.js";

let made = 0;

/** An empty error line to put under a button (in the page from the start, so that a screen reader
 * announces it when it fills); the button is described by it. */
export function refusalLine(button) {
  made += 1;
  const line = h("p.field-error.request-error", { id: `request-error-${made}`, role: "alert", hidden: true });
  button.setAttribute("aria-describedby", line.id);
  return line;
}

/** Show ``err``'s words in ``line`` (or empty it: ``err`` null). */
export function showRefusal(line, err) {
  line.textContent = err ? refusalWords(err) : "";
  line.hidden = !err;
  if (!err) return;
  // the line and the button that asked, both in view (a button at the screen's foot: its line too)
  line.scrollIntoView({ block: "nearest" });
  const asker = document.querySelector(`[aria-describedby="${line.id}"]`);
  if (asker) asker.scrollIntoView({ block: "nearest" });
}

/** What to tell the player of a refusal: the server's message, or, for the limit of games in play
 * from one address, what it counts and what to do about it. */
export function refusalWords(err) {
  const details = err.details || {};
  if (err.code === "too-many-games" && details.limit) {
    return (
      `Your network already has ${details.count} unfinished games, the most allowed at once from one ` +
      "network address (every browser and device on it counts, so “Your games” may list fewer). " +
      "Finish or resign one of your games, or wait for one to end, then try again."
    );
  }
  // "seat 0 is already taken": the API's seat numbers count from 0, the pages' from 1; beside the
  // seat's own button no number is needed
  if (err.code === "taken") return /\bbot\b/.test(String(err.message)) ? "A bot already plays this seat." : "Someone else took this seat first.";
  // the server's "stale" names its request's field ("expect is 5"): said in a player's words
  if (err.code === "stale") return "The game moved on before this reached it, so nothing was done. Look at the table again, then try again if you still want to.";
  // a line of its own starts as a sentence ("you are already waiting…" from the server)
  const said = String(err.message || "");
  return said.charAt(0).toUpperCase() + said.slice(1);
}

// A panel redrawn at every move or poll (the lobby's lists, the players, the take-back bar) would
// drop a refusal with its old elements: it is kept here under what was asked (``key``) until the
// next try of it, and drawn again beside the control at each redraw.
const kept = new Map(); // key -> {err, said}

/** Keep the refusal of what ``key`` names (``err`` null: a new try, forget it). */
export function keepRefusal(key, err) {
  if (err) kept.set(key, { err, said: false });
  else kept.delete(key);
}

/** ``button``'s refusal line, showing the refusal kept under ``key``; with no button (the control
 * is gone: the seat taken, the game over), the line alone while a refusal is kept, else null. */
export function keptLine(key, button = null) {
  const refusal = kept.get(key);
  if (!button && !refusal) return null;
  const line = button ? refusalLine(button) : h("p.field-error.request-error", { hidden: true });
  if (!refusal) return line;
  line.textContent = refusalWords(refusal.err);
  line.hidden = false;
  // read out once, when it first shows: a poll's redraw does not say it again
  if (refusal.said) line.removeAttribute("role");
  else line.setAttribute("role", "alert");
  if (!refusal.said) setTimeout(() => line.isConnected && line.scrollIntoView({ block: "nearest" }));
  refusal.said = true;
  return line;
}
