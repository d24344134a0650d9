// The full rules of a game (/rules?game=<id>): the game's rules.md, shown as text with a
// tiny Markdown subset (headings, lists, paragraphs); never as HTML.
import { h, replace, $ } from "./dom.js";
import { t, translatePage } from "./i18n.js";
import { api } from "./api.js";

translatePage();
const game = new URLSearchParams(location.search).get("game") || "";

function inline(text) {
  return text.replace(/\*\*(.+?)\*\*/g, "$1").replace(/`([^`]+)`/g, "$1").replace(/\[([^\]]+)\]\([^)]+\)/g, "$1").replace(/\s*\([A-Z]\d+\)/g, "");
}

function markdown(text) {
  const out = [];
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) out.push(h("p", {}, inline(para.join(" "))));
    para = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const item = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
    if (heading) {
      flush(); list = null;
      out.push(h(`h${Math.min(4, heading[1].length + 1)}`, {}, inline(heading[2])));
    } else if (item) {
      flush();
      if (!list) { list = h("ul", {}); out.push(list); }
      list.append(h("li", {}, inline(item[1])));
    } else if (!line.trim()) {
      flush(); list = null;
    } else if (list && /^\s+/.test(raw)) {
      list.lastChild.append(" " + inline(line.trim()));
    } else {
      list = null;
      para.push(line.trim());
    }
  }
  flush();
  return out;
}

api.rules(game)
  .then((text) => {
    document.title = `${game} — ${t("rules.title")}`;
    replace($("#main"), h("p", {}, h("a", { href: `/?game=${encodeURIComponent(game)}` }, t("rules.back"))), markdown(text));
  })
  .catch(() => replace($("#main"), h("h1", {}, t("rules.missing")), h("p", {}, h("a", { href: "/" }, t("nav.lobby")))));
