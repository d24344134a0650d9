"""The example learner gets close to the exact optimum (slow suite, issue 14)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "learn_decathlon_event.py"


@pytest.mark.slow
def test_q_learning_reaches_90_percent_of_the_exact_ev() -> None:
    spec = importlib.util.spec_from_file_location("learn_decathlon_event", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines: list[str] = []
    mean, exact = module.learn(
        "110m-hurdles", 8_000, seed=1, checkpoints=1, final_eval=4_000, report=lines.append
    )
    assert exact == pytest.approx(21.3754, abs=1e-4)
    assert mean >= 0.9 * exact, "\n".join(lines)
