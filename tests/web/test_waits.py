"""The browser tests wait the way a strict CSP and a loaded machine allow (issue 20).

``wait_for_function`` and string ``evaluate`` expressions are compiled by eval inside
the page, which the app's CSP (``script-src 'self'``, no ``'unsafe-eval'``) refuses in
current Chromium; a short explicit timeout fails on a busy 2-core machine. The
helpers in ``webui`` (``wait_until``, ``new_context``) are the one way to wait.
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def test_no_browser_test_waits_by_eval_or_by_a_short_timeout() -> None:
    found = []
    for path in sorted(HERE.glob("*.py")):
        for call in _calls(path):
            name = getattr(call.func, "attr", getattr(call.func, "id", ""))
            where = f"{path.name}:{call.lineno}"
            owner = getattr(getattr(call.func, "value", None), "id", None)
            raw_context = name == "new_context" and owner not in (None, "ui")
            if (name == "wait_for_function" or raw_context) and path.name != "webui.py":
                found.append(f"{where} {name}: use webui.wait_until / webui.new_context")
            if name in ("evaluate", "evaluate_all", "wait_until") and call.args:
                script = call.args[1 if name == "wait_until" else 0]
                if isinstance(script, ast.Constant) and "=>" not in str(script.value):
                    found.append(f"{where} {name} of an expression: pass a function")
            for kw in call.keywords:
                if kw.arg == "timeout" and name.startswith("wait_for"):
                    found.append(f"{where} {name}(timeout=...): the context's bound applies")
    assert found == []
