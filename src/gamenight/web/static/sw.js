// The service worker of gamenight's pages (served at /sw.js: its scope is the whole site).
// It shows a push notification (docs/notifications.md: the server's JSON, decrypted by the
// browser) and, when it is clicked, opens the room on this site only.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const lines = Array.isArray(data.lines) ? data.lines.map(String) : [];
  event.waitUntil(
    self.registration.showNotification(String(data.subject || "gamenight"), {
      body: lines.join("\n"),
      lang: String(data.lang || ""),
      tag: String(data.delivery || "gamenight"),
      icon: "/static/img/icon.svg",
      data: { url: String(data.url || "/") },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let path = "/";
  try {
    // only a page of this site: the path of the room's link, on this origin
    path = new URL(event.notification.data.url, self.location.origin).pathname;
  } catch {
    path = "/";
  }
  event.waitUntil(self.clients.openWindow(new URL(path, self.location.origin).href));
});
