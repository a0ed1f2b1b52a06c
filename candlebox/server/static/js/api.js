// The JSON API and what this browser remembers: each game's seat credential, kept in localStorage.
// A signed-in browser also sends its session cookie (same-site requests carry it by themselves).

const KEY = "candlebox.seats";

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.message) || `${response.status} ${response.statusText}`);
    error.code = data && data.error;
    error.status = response.status;
    error.details = data || {}; // the refusal's facts beside its message (a limit, its count)
    error.retryAfter = Number(response.headers.get("Retry-After")) || null; // seconds, on a 429
    throw error;
  }
  return data;
}

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function save(all) {
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** This browser's seat in a game: {seat, token, invites?, title?, created?} or null. */
export function mySeat(gameId) {
  return load()[gameId] || null;
}

export function remember(gameId, info) {
  const all = load();
  all[gameId] = { ...(all[gameId] || {}), ...info, saved: Date.now() };
  save(all);
}

export function forget(gameId) {
  const all = load();
  delete all[gameId];
  save(all);
}

export function myGames() {
  return Object.entries(load())
    .map(([id, info]) => ({ id, ...info }))
    .sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

export function joinLink(gameId, seat, invite) {
  const base = `${location.origin}/g/${encodeURIComponent(gameId)}?seat=${seat}`;
  return invite ? `${base}#invite=${encodeURIComponent(invite)}` : base;
}
