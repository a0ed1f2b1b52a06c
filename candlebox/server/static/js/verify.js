// The page a verification mail links to (/verify?token=...): a button confirms the address, so a
// mail scanner that opens the link confirms nothing. The token leaves the address bar at once
// (a screenshot or a shared screen shows no token).

import { api } from "./api.js";
import { sentence } from "./passkeys.js";

const token = new URLSearchParams(location.search).get("token") || "";
history.replaceState(null, "", "/verify");
const button = document.getElementById("verify-button");
const status = document.getElementById("verify-status");

function say(text, bad = false) {
  status.textContent = text;
  status.classList.toggle("bad", bad);
}

if (!token) {
  button.disabled = true;
  say("This link has no token: open the link from the mail again.", true);
}

button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    const done = await api("/api/accounts/verify", { method: "POST", body: { token } });
    say(`Thank you, ${done.name}: ${done.email} is confirmed.`);
    // nothing is left to do here: a greyed-out button would only ask "why not?"
    button.hidden = true;
    document.getElementById("verify-what").textContent = "Your address is confirmed.";
  } catch (error) {
    say(sentence(error.message), true);
    button.disabled = false;
  }
});
