// The rules at the table: the top bar's "Rules" opens a drawer (a modal <dialog>: the
// focus stays inside, Escape closes it, the focus goes back to the button) with the
// game's full rules in the page's language. They are the rules page's own text
// (/rules?game=<id>&lang=<page's language>, which the server renders from the game's
// rules.md with raw HTML escaped: gamenight/web/rules.py), fetched once, on first open,
// and taken out of that page with DOMParser, which runs nothing. A game without rules in
// the page's language shows the English ones (their own lang attribute says so).
import { h, replace } from "../dom.js";
import { t, language, gameName, translatePage } from "../i18n.js";

let mounted = null; // the game whose rules the drawer holds

/** Show the top bar's Rules button for game `gameId` and wire its drawer (once). */
export function mountRulesDrawer(gameId) {
  const button = document.getElementById("rules-open");
  const dialog = document.getElementById("rules-drawer");
  if (!button || !dialog || !gameId || mounted === gameId) return;
  const first = mounted === null;
  mounted = gameId;
  button.hidden = false;
  let body = null; // the promise of the rules' nodes
  if (!first) return;
  button.addEventListener("click", () => {
    body ||= rulesOf(mounted);
    open(dialog, body);
  });
  dialog.addEventListener("close", () => button.focus({ preventScroll: true }));
  // a tap on the backdrop (outside the drawer's box) closes it, as on every phone sheet
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) {
      const r = dialog.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) dialog.close();
    }
  });
}

function pageUrl(gameId) {
  return `/rules?game=${encodeURIComponent(gameId)}&lang=${encodeURIComponent(language())}`;
}

async function rulesOf(gameId) {
  const response = await fetch(pageUrl(gameId), { headers: { Accept: "text/html" } });
  if (!response.ok) throw new Error(String(response.status));
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const article = page.querySelector("article.rules-text");
  if (!article) throw new Error("no rules");
  return { article: document.importNode(article, true) }; // its list of sections is inside
}

function open(dialog, body) {
  const close = h("button", { type: "button", class: "rules-close", "data-key": "rules-close", onclick: () => dialog.close() },
    h("span", { "aria-hidden": "true" }, "✕ "), t("rules.close"));
  const title = h("h2", { id: "rules-drawer-title" }, t("rules.drawer_title", { name: gameName(mounted, mounted) }));
  const content = h("div", { class: "rules-drawer-body", "aria-busy": "true" }, h("p", { class: "muted" }, t("rules.loading")));
  replace(dialog,
    h("div", { class: "rules-drawer-head" }, title, close),
    content,
    h("p", { class: "rules-drawer-foot" }, h("a", { href: pageUrl(mounted), target: "_blank", rel: "noopener" }, t("rules.as_page"))));
  if (!dialog.open) dialog.showModal();
  close.focus();
  body.then(({ article }) => {
    // the section links move within the drawer (the room's address keeps no #fragment)
    for (const link of article.dataset.wired ? [] : [...article.querySelectorAll("a[href^='#']")]) {
      link.addEventListener("click", (e) => {
        const target = article.querySelector(`[id="${CSS.escape(link.getAttribute("href").slice(1))}"]`);
        if (!target) return;
        e.preventDefault();
        target.scrollIntoView({ block: "start" });
      });
    }
    article.dataset.wired = "1";
    replace(content, article);
    translatePage(content);
    content.removeAttribute("aria-busy");
  }).catch(() => {
    replace(content, h("p", { class: "error" }, t("rules.unavailable")));
    content.removeAttribute("aria-busy");
  });
}
