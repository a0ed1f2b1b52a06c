// Passkeys (WebAuthn): register one while signed in, list and remove them, and sign in with one.
// Each ceremony is two requests: the server's options (and a flow token to send back), then the
// browser's answer (docs/server.md, "Passkeys"). The functions are exported for other pages (a
// sign-in form can offer signInWithPasskey); on /passkeys this module also drives the page.

import { api } from "./api.js";

/** Whether this browser can use passkeys here (HTTPS or localhost, and WebAuthn present). */
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && window.isSecureContext && navigator.credentials);
}

function fromBase64url(text) {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = plain + "=".repeat((4 - (plain.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((item) => ({ ...item, id: fromBase64url(item.id) }));

function creationOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
}

function requestOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
}

function answer(credential, response) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
  };
}

/** Register a passkey for the signed-in account; resolves to {id, name, created_at, used_at}. */
export async function registerPasskey(name) {
  const { flow, options } = await api("/api/passkeys/register/options", { method: "POST", body: {} });
  const made = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const response = {
    clientDataJSON: toBase64url(made.response.clientDataJSON),
    attestationObject: toBase64url(made.response.attestationObject),
    transports: made.response.getTransports ? made.response.getTransports() : [],
  };
  const body = { flow, credential: answer(made, response) };
  if (name) body.name = name;
  return api("/api/passkeys", { method: "POST", body });
}

/** Sign in with a passkey this browser holds for the site; resolves to the account. */
export async function signInWithPasskey() {
  const { flow, options } = await api("/api/passkeys/sign-in/options", { method: "POST", body: {} });
  const used = await navigator.credentials.get({ publicKey: requestOptions(options) });
  const response = {
    clientDataJSON: toBase64url(used.response.clientDataJSON),
    authenticatorData: toBase64url(used.response.authenticatorData),
    signature: toBase64url(used.response.signature),
    userHandle: used.response.userHandle ? toBase64url(used.response.userHandle) : null,
  };
  return api("/api/passkeys/sign-in", { method: "POST", body: { flow, credential: answer(used, response) } });
}

export async function listPasskeys() {
  return (await api("/api/passkeys")).passkeys;
}

export async function removePasskey(id) {
  return api(`/api/passkeys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

// ---------------------------------------------------------------------------- the /passkeys page
function say(text, bad = false) {
  const status = document.getElementById("passkey-status");
  status.textContent = text;
  status.classList.toggle("bad", bad);
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(undefined, { dateStyle: "medium" });
}

/** The server's messages start in lower case (they also end up inside sentences); shown alone, as one. */
export function sentence(text) {
  const whole = text.endsWith(".") ? text : `${text}.`;
  return whole.charAt(0).toUpperCase() + whole.slice(1);
}

/** Why a ceremony stopped, in words (the browser's own errors name no cause a player can act on). */
function reason(error) {
  if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
  if (error && error.name === "InvalidStateError") return "This device holds a passkey for this account already.";
  return sentence((error && error.message) || "something went wrong; try again");
}

async function showMine(name) {
  document.getElementById("passkey-mine").hidden = false;
  document.getElementById("passkey-sign-in").hidden = true;
  document.getElementById("passkey-who").textContent = `Signed in as ${name}.`;
  const list = document.getElementById("passkey-list");
  const held = await listPasskeys();
  list.replaceChildren(
    ...held.map((key) => {
      const item = document.createElement("li");
      item.dataset.passkey = String(key.id);
      const label = document.createElement("span");
      label.textContent = key.name;
      const dates = document.createElement("span");
      dates.className = "passkey-when";
      dates.textContent = `added ${when(key.created_at)}` + (key.used_at ? `, last used ${when(key.used_at)}` : "");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "small subtle";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove the passkey ${key.name}`);
      remove.addEventListener("click", async () => {
        try {
          await removePasskey(key.id);
          say(`Removed the passkey ${key.name}.`);
          await showMine(name);
        } catch (error) {
          say(reason(error), true);
        }
      });
      const text = document.createElement("span");
      text.append(label, " ", dates);
      item.append(text, remove);
      return item;
    }),
  );
  if (!held.length) {
    const none = document.createElement("li");
    none.textContent = "No passkey yet.";
    list.append(none);
  }
}

function showSignIn() {
  document.getElementById("passkey-sign-in").hidden = false;
  document.getElementById("passkey-mine").hidden = true;
}

async function startPage() {
  if (!passkeysSupported()) {
    say("This browser cannot use passkeys here: they need HTTPS (or localhost) and a browser that has them.", true);
    return;
  }
  document.getElementById("passkey-sign-in-button").addEventListener("click", async () => {
    try {
      const account = await signInWithPasskey();
      say(`Signed in as ${account.name}.`);
      await showMine(account.name);
    } catch (error) {
      say(reason(error), true);
    }
  });
  document.getElementById("passkey-add").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("passkey-name");
    try {
      const made = await registerPasskey(input.value.trim());
      input.value = "";
      say(`Added the passkey ${made.name}.`);
      await showMine((await api("/api/me")).name);
    } catch (error) {
      say(reason(error), true);
    }
  });
  try {
    // a guest is asked to sign in (GET /api/session: no 401 in the browser's console for them)
    const session = await api("/api/session");
    if (session.signed_in) await showMine(session.name);
    else showSignIn();
  } catch (error) {
    if (error.status !== 401) say(reason(error), true); // a session that ended meanwhile: sign in
    showSignIn();
  }
}

if (document.getElementById("passkeys")) startPage();
