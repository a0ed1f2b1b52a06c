// The account pages, one per path: /signin, /signup, /reset (a new password from the operator's
// reset link: /reset#TOKEN, the token after '#' so that it never reaches a server or a log) and
// /account (name, member since, export, friends, signing out, deleting the account). Each refusal
// is shown beside the field it names (js/account.js).

import { api } from "./api.js";
import { claimGuestSeats, fieldErrors, showWho, whoAmI } from "./account.js";
import { noticePrefsPanel } from "./noticeprefs.js";
import { clear, h, toast } from "./ui.js";

const main = document.getElementById("account-main");
const WHEN = { dateStyle: "long" };

function field(id, label, attrs, hint) {
  const input = h("input", { id, name: id, ...attrs });
  return {
    input,
    box: h("div.field", h("label", { for: id }, label), input, hint ? h("p.hint", { id: `${id}-hint` }, hint) : null),
  };
}

/** Where to go once signed in: a page of this site the sign-in link came from, else the lobby. */
function next() {
  const wanted = new URLSearchParams(location.search).get("next") || "/";
  return wanted.startsWith("/") && !wanted.startsWith("//") ? wanted : "/";
}

function page(title, ...children) {
  document.title = `Candlebox · ${title}`;
  clear(main).append(h("section.panel.account-panel", h("h1", title), ...children));
}

/** A form that sends itself with ``send(values)``; refusals go beside their fields. */
function sendingForm(label, fields, send, extra) {
  const button = h("button.primary", { type: "submit" }, label);
  const form = h("form.account-form", { noValidate: true }, fields.map((f) => f.box), h("div.form-actions", button, extra));
  const inputs = Object.fromEntries(fields.map((f) => [f.input.name === "new-password" ? "password" : f.input.name, f.input]));
  const errors = fieldErrors(form, inputs);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errors.clear();
    button.disabled = true;
    try {
      await send();
    } catch (err) {
      errors.show(err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

async function signedIn() {
  try {
    await claimGuestSeats(); // the guest games of this browser become the account's
  } catch (err) {
    toast(`Your guest games could not be added to your account: ${err.message}`, "error");
  }
  location.assign(next());
}

function signIn() {
  const name = field("name", "Name", { type: "text", autocomplete: "username", required: true, maxLength: 100 });
  const password = field("password", "Password", { type: "password", autocomplete: "current-password", required: true });
  const form = sendingForm("Sign in", [name, password], async () => {
    await api("/api/session", { method: "POST", body: { name: name.input.value, password: password.input.value } });
    await signedIn();
  });
  page(
    "Sign in",
    h("p.lead", "Your games follow you to any device you sign in on. You can also play without an account."),
    form,
    h("p", "New here? ", h("a", { href: `/signup${location.search}` }, "Create an account"), "."),
    h("p.hint", "Forgotten your password? The server's operator can give you a link to set a new one."),
  );
  name.input.focus();
}

function signUp() {
  const name = field("name", "Name", { type: "text", autocomplete: "username", required: true, maxLength: 100 },
    "3 to 20 letters, digits, _ or -; shown to the other players.");
  const password = field("new-password", "Password", { type: "password", autocomplete: "new-password", required: true },
    "At least 8 characters.");
  const email = field("email", "E-mail (optional)", { type: "email", autocomplete: "email" },
    "Only to send you a link if you forget your password.");
  const form = sendingForm("Create account", [name, password, email], async () => {
    const body = { name: name.input.value, password: password.input.value };
    if (email.input.value.trim()) body.email = email.input.value.trim();
    await api("/api/accounts", { method: "POST", body });
    await signedIn();
  });
  page(
    "Create an account",
    h("p.lead", "A name that lasts, your games on any device, and friends to invite. The games you played as a guest in this browser become your account's."),
    form,
    h("p", "Already have an account? ", h("a", { href: `/signin${location.search}` }, "Sign in"), "."),
  );
  name.input.focus();
}

function reset() {
  // the link carries the token after '#'; taken out of the address bar once read
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || location.hash.slice(1) ||
    new URLSearchParams(location.search).get("token") || "";
  if (location.hash || location.search) history.replaceState(null, "", "/reset");
  if (!token) {
    page("Set a new password", h("p", "This page sets a new password from a reset link. Ask the server's operator for one."),
      h("p", h("a", { href: "/signin" }, "Sign in")));
    return;
  }
  const password = field("new-password", "New password", { type: "password", autocomplete: "new-password", required: true },
    "At least 8 characters. Every browser signed in to your account is signed out.");
  const form = sendingForm("Set new password", [password], async () => {
    const done = await api("/api/accounts/reset", { method: "POST", body: { token, password: password.input.value } });
    page("Password changed", h("p", { role: "status" }, `${done.name}, your new password is set.`),
      h("p", h("a.button.primary", { href: "/signin" }, "Sign in")));
  });
  page("Set a new password", form);
  password.input.focus();
}

// ----------------------------------------------------------------------------- the account page
async function account() {
  const me = await whoAmI().catch(() => null);
  if (!me) {
    location.replace("/signin?next=/account");
    return;
  }
  document.title = `Candlebox · ${me.name}`;
  const since = new Date(me.member_since * 1000).toLocaleDateString([], WHEN);
  clear(main).append(
    h("section.panel.account-panel",
      h("h1", me.name),
      h("p.lead", `Member since ${since}`),
      me.email ? h("p", `E-mail: ${me.email}`) : null,
      h("div.form-actions",
        h("a.button", { href: "/" }, "Your games"),
        h("a.button", { href: "/api/me/export", download: "candlebox-account.json" }, "Export my data")),
    ),
    friendsPanel(),
    noticePrefsPanel(me),
    signOutPanel(),
    deletePanel(),
  );
}

function signOutPanel() {
  const out = (everywhere) => async () => {
    try {
      await api(`/api/session${everywhere ? "?everywhere=true" : ""}`, { method: "DELETE" });
      location.assign("/");
    } catch (err) {
      toast(err.message, "error");
    }
  };
  return h("section.panel.account-panel", { "aria-labelledby": "sign-out-title" },
    h("h2", { id: "sign-out-title" }, "Signing out"),
    h("p.hint", "Sign out everywhere ends every browser's session, this one's too: use it after signing in on a device that is not yours."),
    h("div.form-actions",
      h("button", { type: "button", dataset: { action: "sign-out" }, onclick: out(false) }, "Sign out"),
      h("button", { type: "button", dataset: { action: "sign-out-everywhere" }, onclick: out(true) }, "Sign out everywhere")));
}

function deletePanel() {
  const password = field("delete-password", "Your password", { type: "password", autocomplete: "current-password", required: true });
  password.input.name = "password";
  const form = sendingForm("Delete my account", [password], async () => {
    await api("/api/me", { method: "DELETE", body: { password: password.input.value } });
    location.assign("/");
  });
  form.querySelector("button[type=submit]").classList.add("danger");
  return h("section.panel.account-panel", { "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, "Delete my account"),
    h("p.hint", "Your name becomes “deleted player” in the games you finished (they still replay) and every session ends. This cannot be undone."),
    form);
}

// ----------------------------------------------------------------------------- friends
function friendsPanel() {
  const list = h("div.game-list.follows", { id: "follows" });
  const name = field("follow-name", "Player's name", { type: "text", required: true, maxLength: 100, autocomplete: "off" });
  name.input.name = "name";
  const form = sendingForm("Follow", [name], async () => {
    const done = await api("/api/me/follows", { method: "POST", body: { name: name.input.value } });
    name.input.value = "";
    toast(`You follow ${done.followed} now.`);
    await drawFollows(list);
  });
  drawFollows(list);
  return h("section.panel.account-panel", { "aria-labelledby": "friends-title" },
    h("h2", { id: "friends-title" }, "Friends"),
    h("p.hint", "Follow players by name to see their games being played; invite them by name into a seat from a game's page."),
    form, list);
}

let titles = null; // game id -> its title (/api/meta), asked once

async function drawFollows(list) {
  let answer;
  try {
    titles = titles || Object.fromEntries((await api("/api/meta")).games.map((g) => [g.id, g.title]));
    answer = await api("/api/me/follows");
  } catch (err) {
    clear(list).append(h("p.empty", err.message));
    return;
  }
  clear(list);
  if (!answer.follows.length) list.append(h("p.empty", "You follow nobody yet."));
  for (const person of answer.follows) {
    const games = person.games.map((g) =>
      h("a.button.small", { href: `/g/${encodeURIComponent(g.id)}`, "aria-label": `Watch ${titles[g.game] || g.game}: ${person.name}'s game` },
        `Watch ${titles[g.game] || g.game}`));
    const unfollow = async () => {
      try {
        await api(`/api/me/follows/${encodeURIComponent(person.name)}`, { method: "DELETE" });
        await drawFollows(list);
        list.closest("section").querySelector("input").focus();
      } catch (err) {
        toast(err.message, "error");
      }
    };
    list.append(h("div.game-card", { dataset: { follows: person.name } },
      h("span.gc-title", person.name),
      h("span.gc-seats", person.games.length ? `playing ${person.games.length === 1 ? "a game" : `${person.games.length} games`}` : "not playing now"),
      h("div.gc-actions", games,
        h("button.small.subtle", { type: "button", onclick: unfollow, "aria-label": `Unfollow ${person.name}` }, "Unfollow"))));
  }
}

// ----------------------------------------------------------------------------- start
const VIEWS = { "/signin": signIn, "/signup": signUp, "/reset": reset, "/account": account };

showWho(document.getElementById("who"));
(VIEWS[location.pathname] || account)();
