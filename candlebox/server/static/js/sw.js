// The service worker (served at /sw.js, scope "/"; issue 35): shows the server's Web Push
// ("your turn in GAME") as a notification, and opens the game when it is clicked. It caches
// nothing: every page is asked of the server as before.

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(data.title || "Candlebox", {
      body: data.body || "It is your turn.",
      tag: url, // one notification per game: a newer turn replaces it
      data: { url },
      icon: "/static/favicon.svg",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const same = open.find((client) => client.url === url);
      return same ? same.focus() : self.clients.openWindow(url);
    }),
  );
});
