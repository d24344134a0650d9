// The full rules of a game (/rules?game=<id>). The server renders the page itself from
// the game's rules.md (gamenight/web/rules.py: markdown-it with raw HTML escaped, the
// terminal's parts and the ruling ids left out), so the rules read the same without
// JavaScript; this module only translates the page's own words and names the tab.
import { $ } from "./dom.js";
import { t, translatePage } from "./i18n.js";

translatePage();
const title = $("#rules-title");
if (title) document.title = t("rules.page_title", { name: title.textContent });
