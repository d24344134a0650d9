"""Browser tests: the real server in a subprocess, Debian's chromium driven by Playwright.

Screenshots go to ``artifacts/web/`` (ignored by git); tests/conftest.py lists them at the
end of the run (the root conftest is the one the xdist controller loads).
"""

from __future__ import annotations

# The fixtures (server, browser, context, page) live in web/fixtures.py, imported by the
# root conftest so every directory shares one browser.
