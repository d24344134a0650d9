"""A game's ``rules.md`` as HTML for the browser's rules page.

The Markdown is the same file ``gamenight rules`` prints in the terminal. Two things are
left out of the web page:

* every part between ``<!-- cli -->`` and ``<!-- /cli -->`` (the terminal's commands,
  notes for developers); the terminal's renderer shows those parts and skips the
  comments themselves;
* ruling ids such as ``(K2)``, ``[T1]`` or ``(D1-D12)``: they point into the project's
  rulings, which are docs, not something a player at the table reads.

Safety: markdown-it-py renders with ``html=False``, so raw HTML in the Markdown (a tag,
an attribute, a comment) comes out as escaped text, never as markup; link targets pass
markdown-it's ``validateLink`` (no ``javascript:``, ``vbscript:``, ``file:``,
``data:``) and on top of that only ``http(s)://`` links and in-page ``#anchors`` stay
links (relative links into the repository's docs become plain text). Every text and
attribute value is escaped by the renderer. The page therefore carries only the
elements markdown-it itself makes (``h2``, ``p``, ``ul``, ``table``, ``code``, ``a``...)
and no ``style`` (a column's alignment becomes a class ``align-right``...) or
``on*`` attribute: it is served inside the rules page, under the
same CSP as every page.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it is imported when a rules page is first rendered, not at
    # the server's start (issue 29: the first 200 comes before any rules page)
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

CLI_PART = re.compile(r"[ \t]*<!--\s*cli\s*-->.*?<!--\s*/cli\s*-->[ \t]*\n?", re.DOTALL)
_ID = r"[A-Z]\d{1,2}(?:\s*[-–]\s*[A-Z]?\d{1,2})?"
# "(K2)", "[T2, T3]", "(D1-D12)", "[W3]": brackets holding ruling ids only
RULING_REF = re.compile(rf"[ \t]*[\[(]{_ID}(?:\s*,\s*{_ID})*[\])]")
SAFE_HREF = re.compile(r"^(https?://|#)", re.IGNORECASE)


TITLE = re.compile(r"\A\s*# +(.+?)\s*$", re.MULTILINE)


def rules_title(text: str) -> str | None:
    """The title of a rules doc (its leading ``# ...`` line), as plain text.

    >>> rules_title("# Dekady\\n\\nW każdej rundzie..."), rules_title("No title")
    ('Dekady', None)
    """
    found = TITLE.match(text)
    return found.group(1) if found else None


def player_markdown(text: str) -> str:
    """The Markdown a player reads: without the CLI parts and the ruling ids."""
    return RULING_REF.sub("", CLI_PART.sub("", text))


def _md() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    return md


def _unlink(tokens: list[Token]) -> None:
    """Links that lead outside the page's reach (relative paths into the repository)
    become their text; http(s) links open safely."""
    for token in tokens:
        if token.children:
            kept: list[Token] = []
            for child in token.children:
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    if not SAFE_HREF.match(href):
                        child.meta["dropped"] = True
                        continue
                    if not href.startswith("#"):
                        child.attrSet("rel", "noopener noreferrer")
                if child.type == "link_close" and kept and _open_dropped(kept):
                    continue
                kept.append(child)
            token.children = kept


def _open_dropped(kept: list[Token]) -> bool:
    """Whether the link this ``link_close`` ends was dropped: the nearest unclosed
    ``link_open`` among ``kept`` is missing (links do not nest in Markdown)."""
    for child in reversed(kept):
        if child.type == "link_close":
            return True
        if child.type == "link_open":
            return False
    return True


def _slug(title: str, taken: set[str]) -> str:
    base = "rules-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "part")
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


@lru_cache(maxsize=32)
def rules_html(text: str) -> str:
    """The player's rules as an HTML fragment: a list of its sections (links to each
    ``h2``), then the rules with headings from ``h2`` down (the page's ``h1`` is the
    game's name, so the Markdown's own title is left out), tables in a
    ``div.table-wrap``."""
    md = _md()
    tokens = md.parse(player_markdown(text))
    if tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        tokens = tokens[3:]  # heading_open, inline, heading_close
    sections: list[tuple[str, str]] = []
    taken: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type in ("heading_open", "heading_close") and token.tag == "h1":
            token.tag = "h2"
        if token.type == "heading_open" and token.tag == "h2":
            title = "".join(c.content for c in tokens[i + 1].children or [])
            slug = _slug(title, taken)
            token.attrSet("id", slug)
            sections.append((slug, title))
        style = str(token.attrGet("style") or "")  # a table column's alignment
        if style:  # the CSP allows no style attribute: a class says it
            del token.attrs["style"]
            token.attrSet("class", "align-" + style.removeprefix("text-align:"))
    _unlink(tokens)
    out = str(md.renderer.render(tokens, md.options, {}))
    toc = ""
    if len(sections) > 2:
        items = "".join(
            f'<li><a href="#{slug}">{html.escape(title)}</a></li>' for slug, title in sections
        )
        toc = (
            '<nav class="rules-toc" aria-label="Contents" data-i18n-label="rules.contents">'
            f"<ul>{items}</ul></nav>\n"
        )
    return toc + out.replace("<table>", '<div class="table-wrap"><table>').replace(
        "</table>", "</table></div>"
    )
