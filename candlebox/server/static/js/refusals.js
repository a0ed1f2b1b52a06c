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
  // a line of its own starts as a sentence ("you are already waiting…" from the server)
  const said = String(err.message || "");
  return said.charAt(0).toUpperCase() + said.slice(1);
}
