// What the signed-in player is told outside the site (issue 35), on the account page: "your turn"
// e-mails, a daily digest, and pushes to the browsers they allowed ("Notify me" under the bell).
// Each box is saved as it changes (POST /api/me/notices/preferences).

import { api } from "./api.js";
import { h } from "./ui.js";

const CHOICES = [
  ["turn_mail", "E-mail me when it is my turn", "At most one mail per game an hour, never while you are at the table."],
  ["digest", "A daily digest of the games waiting for me", "One mail a day, only when a game waits for you."],
  ["push", "Push notifications to browsers I allowed", "Allow a browser with “Notify me” under the bell."],
];

/** The account page's "Notices" panel (me: GET /api/me, for the address and its confirmation). */
export function noticePrefsPanel(me) {
  const status = h("p.account-status", { role: "status", "aria-live": "polite" });
  const boxes = {};
  const rows = CHOICES.map(([key, label, hint]) => {
    const input = h("input", { type: "checkbox", id: `pref-${key}`, name: key, disabled: true, "aria-describedby": `pref-${key}-hint` });
    boxes[key] = input;
    input.addEventListener("change", () => save(key, input, status));
    return h("div.pref-row",
      input,
      h("label", { htmlFor: `pref-${key}` }, label),
      h("p.hint", { id: `pref-${key}-hint` }, hint));
  });
  const mailNote = h("p.hint", { hidden: true });
  const panel = h("section.panel.account-panel", { "aria-labelledby": "notices-title", dataset: { panel: "notices" } },
    h("h2", { id: "notices-title" }, "Notices"),
    h("fieldset.prefs", h("legend.visually-hidden", "What you are told"), rows),
    mailNote, status);
  api("/api/me/notices/preferences").then((chosen) => {
    for (const [key, input] of Object.entries(boxes)) {
      input.checked = chosen[key];
      input.disabled = false;
    }
    const mailWorks = chosen.mail && me.email && me.email_verified;
    if (!mailWorks) {
      boxes.turn_mail.disabled = true;
      boxes.digest.disabled = true;
      mailNote.hidden = false;
      mailNote.textContent = !chosen.mail ? "This server sends no e-mail." : "Mail goes only to a confirmed address: confirm yours with the link mailed to it.";
    }
  }).catch((err) => {
    status.textContent = err.message;
  });
  return panel;
}

async function save(key, input, status) {
  try {
    await api("/api/me/notices/preferences", { method: "POST", body: { [key]: input.checked } });
    status.textContent = "Saved.";
  } catch (err) {
    input.checked = !input.checked;
    status.textContent = err.message;
  }
}
