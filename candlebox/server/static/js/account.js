// Who is signed in, for every page: the header's account link (the name, to the account page, or
// "Sign in"), the signed-in player asked once per page load (GET /api/me), the guest seats this
// browser keeps handed to the account when it signs in, and a refusal shown by the field it names.

import { api, myGames } from "./api.js";
import { startBell } from "./bell.js";
import { clear, h } from "./ui.js";

let asked = null;
let known = false; // the last answer was a signed-in player: ask for them again directly

/** The signed-in player (GET /api/me: name, games, invites, ...) or null for a guest. A guest is
 * told by GET /api/session (200 either way): /api/me answers a guest 401, which the browser logs
 * as an error on every page a guest opens (and the lobby asks again every few seconds). */
export function whoAmI({ fresh = false } = {}) {
  if (!asked || fresh) asked = ask();
  return asked;
}

async function ask() {
  if (!known && !(await api("/api/session")).signed_in) return null;
  try {
    const me = await api("/api/me");
    known = true;
    return me;
  } catch (err) {
    known = false;
    if (err.status === 401) return null; // the session ended since it was known
    throw err;
  }
}

/** Fill the header's account box: the signed-in name (a link to the account page) or "Sign in". */
export async function showWho(box) {
  if (!box) return null;
  let me = null;
  try {
    me = await whoAmI();
  } catch {
    me = null; // the server could not say: offered to sign in, as a guest would be
  }
  clear(box);
  if (me) {
    box.append(h("a.who-link", { href: "/account" }, h("span.visually-hidden", "Signed in as "), h("span.who-name", me.name)));
  } else {
    const back = location.pathname.startsWith("/g/") ? `?next=${encodeURIComponent(location.pathname)}` : "";
    box.append(h("a.who-link", { href: `/signin${back}` }, "Sign in"));
  }
  box.dataset.state = me ? "signed-in" : "guest";
  if (me) startBell(box); // notices and "(2) Your turn" in the title (issue 35)
  return me;
}

/** Hand the guest seats this browser keeps to the account just signed in (POST /api/me/claim); the
 * server binds each seat whose credential checks out and that no account holds. */
export async function claimGuestSeats() {
  const held = myGames()
    .filter((m) => m.token)
    .slice(0, 100)
    .map((m) => ({ game: m.id, token: m.token }));
  if (!held.length) return [];
  const answer = await api("/api/me/claim", { method: "POST", body: { seats: held } });
  return answer.claimed;
}

// The field each refusal names (the server's codes, candlebox/server/accounts.py and friends.py).
const FIELDS = {
  "name-short": "name",
  "name-long": "name",
  "name-characters": "name",
  "name-reserved": "name",
  "name-taken": "name",
  "password-short": "password",
  "password-long": "password",
  credentials: "password",
  email: "email",
  "no-player": "name",
  "follow-self": "name",
  "already-followed": "name",
  "follow-limit": "name",
  "invite-self": "name",
  "already-seated": "name",
  "already-invited": "name",
  "invite-limit": "name",
};

/** The words for a refusal: the server's message, and when to try again after a 429. */
export function refusalText(err) {
  if (err.status !== 429 || !err.retryAfter) return err.message;
  const when = `try again in ${err.retryAfter} s`;
  return err.message.endsWith("try again later") ? err.message.replace(/try again later$/, when) : `${err.message}; ${when}`;
}

/**
 * A form whose fields show their own refusals. fields: {key: input}; the messages go in a
 * p.field-error after each input (described by it), a refusal of no field in the form's own line.
 */
export function fieldErrors(form, fields) {
  const lines = {};
  for (const [key, input] of Object.entries(fields)) {
    const line = h("p.field-error", { id: `${input.id}-error`, hidden: true });
    input.after(line);
    lines[key] = line;
  }
  const general = h("p.field-error.form-error", { role: "alert", hidden: true });
  form.append(general);
  return {
    clear() {
      for (const [key, line] of Object.entries(lines)) {
        line.hidden = true;
        line.textContent = "";
        fields[key].removeAttribute("aria-invalid");
        fields[key].removeAttribute("aria-describedby");
      }
      general.hidden = true;
      general.textContent = "";
    },
    show(err) {
      this.clear();
      let key = FIELDS[err.code];
      const named = err.code === "malformed" && /\$\.(\w+)/.exec(err.message || ""); // the body's field
      if (!key && named && fields[named[1]]) key = named[1];
      const input = fields[key];
      if (input) {
        lines[key].textContent = refusalText(err);
        lines[key].hidden = false;
        lines[key].setAttribute("role", "alert");
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", lines[key].id);
        input.focus();
      } else {
        general.textContent = refusalText(err);
        general.hidden = false;
      }
    },
  };
}
