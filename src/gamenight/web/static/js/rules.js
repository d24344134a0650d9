// The full rules of a game (/rules?game=<id>). The server renders the page itself from
// the game's rules.md (gamenight/web/rules.py: markdown-it with raw HTML escaped, the
// terminal's parts and the ruling ids left out), so the rules read the same without
// JavaScript; this module only translates the page's own words, the game's name (its
// vocabulary) and names the tab.
import { $ } from "./dom.js";
import { t, translatePage, loadGameMessages, gameName } from "./i18n.js";

translatePage();
const title = $("#rules-title");
if (title) {
  await loadGameMessages(title.dataset.game);
  title.textContent = gameName(title.dataset.game, title.textContent);
  document.title = t("rules.page_title", { name: title.textContent });
}
