// The full rules of a game (/rules?game=<id>). The server renders the page itself from
// the game's rules.md (gamenight/web/rules.py: markdown-it with raw HTML escaped, the
// terminal's parts and the ruling ids left out), so the rules read the same without
// JavaScript; this module only translates the page's own words, the game's name (its
// vocabulary) and names the tab.
//
// Opened without ?lang= the server chooses the rules' language from the browser's
// Accept-Language, while the page's words follow the language the player chose in the
// switcher (i18n.js): when the two differ, the page asks the server again, with ?lang=,
// so the heading and the rules are never in two languages.
import { $ } from "./dom.js";
import { t, translatePage, loadGameMessages, gameName, language } from "./i18n.js";

const asked = new URLSearchParams(location.search);
const shown = $("#rules-title")?.getAttribute("lang") || document.documentElement.lang;
if (!asked.has("lang") && asked.has("game") && language() !== shown) {
  asked.set("lang", language());
  location.replace(`${location.pathname}?${asked}${location.hash}`);
} else {
  translatePage();
  const title = $("#rules-title");
  if (title) {
    await loadGameMessages(title.dataset.game);
    title.textContent = gameName(title.dataset.game, title.textContent);
    document.title = t("rules.page_title", { name: title.textContent });
  }
}
