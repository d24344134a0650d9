"""The browser fixtures of tests/web, for the plug-in's browser test."""

from web.conftest import browser, context, page, server

__all__ = ["browser", "context", "page", "server"]
