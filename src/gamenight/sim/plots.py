"""Plots for simulation reports and solver results (matplotlib, SVG or PNG).

Readable by design: axis labels with units, the seed and line-up in every
title, and the Okabe-Ito colour-blind-safe palette (cividis for heat maps).
Every function returns a matplotlib Figure; :func:`svg` turns one into an
inline ``<svg>`` string.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamenight.core.extras import require

# Every function here draws with matplotlib, the [sim] extra: checked once, on import.
require(__name__, "sim", "matplotlib")

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
OKABE_ITO = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)


def _figure(width: float = 7.5, height: float = 4.2) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig


def _title(fig: Figure, ax: Any, title: str) -> None:
    """The title, wrapped to the figure's width (seeds and line-ups make long titles)."""
    import textwrap

    width = max(30, int(fig.get_figwidth() * 11))
    ax.set_title(textwrap.fill(title, width), fontsize=10)


# Reproducible output: SVG ids come from a fixed salt (not a random one per run) and no
# file carries the time it was drawn, so the same figure is the same bytes.
SVG_SALT = "gamenight"


def _reproducible(fmt: str) -> dict[str, Any]:
    return {"metadata": {"Date": None}} if fmt in ("svg", "pdf") else {}


def svg(fig: Figure) -> str:
    """The figure as an inline SVG element (no XML header); the same bytes every time."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(buf, format="svg", **_reproducible("svg"))
    text = buf.getvalue()
    return text[text.index("<svg") :]


def save(fig: Figure, path: Path) -> Path:
    """Write the figure; the format follows the suffix (.svg, .png), reproducibly."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(path, dpi=110, **_reproducible(path.suffix.lstrip(".").lower()))
    return path


def score_distribution(
    scores: Mapping[str, Sequence[float]], *, title: str, unit: str = "points"
) -> Figure:
    """Violin plot (with the mean marked) of each bot's final scores."""
    fig = _figure()
    ax = fig.add_subplot()
    names = list(scores)
    data = [list(scores[n]) or [math.nan] for n in names]
    positions = list(range(1, len(names) + 1))
    spread = [d for d in data if len(set(d)) > 1]
    if spread and len(spread) == len(data):
        parts = ax.violinplot(data, positions=positions, showextrema=True, showmedians=True)
        bodies: Any = parts["bodies"]
        for i, body in enumerate(bodies):
            body.set_facecolor(OKABE_ITO[i % len(OKABE_ITO)])
            body.set_edgecolor("black")
            body.set_alpha(0.7)
    else:
        ax.boxplot(data, positions=positions)
    means = [sum(d) / len(d) for d in data]
    ax.scatter(positions, means, marker="D", color="black", zorder=3, label="mean")
    ax.set_xticks(positions, names)
    ax.set_xlabel("bot")
    ax.set_ylabel(f"final score ({unit})")
    _title(fig, ax, title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return fig


def win_shares(
    names: Sequence[str],
    shares: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    title: str,
) -> Figure:
    """Horizontal bars of win shares with 95% interval whiskers."""
    fig = _figure(7.5, 1.2 + 0.5 * len(names))
    ax = fig.add_subplot()
    ys = list(range(len(names)))
    err = [
        [max(0.0, s - lo) for s, lo in zip(shares, lows, strict=True)],
        [max(0.0, hi - s) for s, hi in zip(shares, highs, strict=True)],
    ]
    ax.barh(
        ys,
        [s * 100 for s in shares],
        xerr=[[e * 100 for e in side] for side in err],
        color=[OKABE_ITO[i % len(OKABE_ITO)] for i in ys],
        capsize=4,
        edgecolor="black",
    )
    for y, s in zip(ys, shares, strict=True):
        ax.annotate(f"{s:.1%}", (s * 100, y), xytext=(4, 6), textcoords="offset points", fontsize=8)
    ax.set_yticks(ys, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("win share (% of games; shared wins split), bars = 95% interval")
    _title(fig, ax, title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def odds_track(
    names: Sequence[str],
    track: Sequence[Sequence[float]],
    sections: Sequence[tuple[int, str]],
    *,
    title: str,
    ylabel: str = "P(win) (%; ties shared)",
) -> Figure:
    """Each seat's win probability after every decision of one game, as steps.

    ``track[k][seat]`` is the probability before decision ``k`` (the last entry may be
    the final result); ``sections`` mark where a new part of the game (an event)
    begins, with a short label.
    """
    fig = _figure(9.0, 4.6)
    ax = fig.add_subplot()
    xs = list(range(len(track)))
    for seat, name in enumerate(names):
        ys = [row[seat] * 100 for row in track]
        ax.step(xs, ys, where="post", color=OKABE_ITO[seat % len(OKABE_ITO)], label=name, lw=1.4)
    for start, label in sections:
        ax.axvline(start, color="grey", lw=0.6, ls=":")
        ax.annotate(
            label,
            (start, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(2, -2),
            textcoords="offset points",
            fontsize=7,
            rotation=90,
            va="top",
            color="dimgrey",
        )
    ax.set_xlim(0, max(1, len(track) - 1))
    ax.set_ylim(0, 100)
    ax.set_xlabel("decision (every player's, in game order)")
    ax.set_ylabel(ylabel)
    _title(fig, ax, title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    return fig


def heat_map(names: Sequence[str], matrix: Sequence[Sequence[float]], *, title: str) -> Figure:
    """The head-to-head matrix: row bot finished ahead of column bot, in %."""
    import numpy as np

    n = len(names)
    fig = _figure(max(6.5, 2.5 + 1.1 * n), 1.8 + 0.9 * n)
    ax = fig.add_subplot()
    values = np.array([[math.nan if v is None else v * 100 for v in row] for row in matrix])
    image = ax.imshow(values, cmap="cividis", vmin=0, vmax=100)
    for a in range(n):
        for b in range(n):
            v = values[a, b]
            if not math.isnan(v):
                ax.text(
                    b,
                    a,
                    f"{v:.0f}%",
                    ha="center",
                    va="center",
                    color="black" if v > 55 else "white",
                    fontsize=9,
                )
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("bot (row)")
    fig.colorbar(image, ax=ax, label="row finished ahead of column (% of games)")
    _title(fig, ax, title)
    return fig


def pmf(
    values: Sequence[float],
    probabilities: Sequence[float],
    *,
    title: str,
    ev: float | None = None,
    xlabel: str = "score (points)",
    ylabel: str = "probability",
) -> Figure:
    """A probability mass function as bars, the expected value marked."""
    fig = _figure(7.0, 3.6)
    ax = fig.add_subplot()
    width = min((b - a for a, b in itertools.pairwise(values)), default=1.0) * 0.9
    ax.bar(values, probabilities, width=max(width, 1e-9), color=OKABE_ITO[0])
    if ev is not None:
        ax.axvline(ev, color=OKABE_ITO[5], linestyle="--", linewidth=2, label=f"EV {ev:.2f}")
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _title(fig, ax, title)
    ax.grid(axis="y", alpha=0.3)
    return fig


def histogram(
    samples: Sequence[float],
    *,
    title: str,
    xlabel: str = "final score (points)",
    exact: float | None = None,
) -> Figure:
    """A histogram of samples (probability per bin), the mean marked."""
    fig = _figure(7.0, 3.6)
    ax = fig.add_subplot()
    ax.hist(
        samples,
        bins=min(50, max(10, round(math.sqrt(len(samples))))),
        color=OKABE_ITO[0],
        weights=[1 / len(samples)] * len(samples),
        edgecolor="white",
    )
    mean = sum(samples) / len(samples)
    ax.axvline(mean, color=OKABE_ITO[5], linestyle="--", linewidth=2, label=f"mean {mean:.2f}")
    if exact is not None:
        ax.axvline(exact, color="black", linestyle=":", linewidth=2, label=f"exact EV {exact:.2f}")
    ax.legend(loc="best", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    _title(fig, ax, title)
    ax.grid(axis="y", alpha=0.3)
    return fig


# --- solver results (functions of the solution's JSON) ---------------------------------


def decathlon_win_chain_plot(solution: Mapping[str, Any], out: Path) -> list[Path]:
    """The two-player win table (``solve decathlon --two-player-win``): the first
    mover's win chance against the lead, one curve per event still to play."""
    from matplotlib import colormaps

    out.mkdir(parents=True, exist_ok=True)
    fig = _figure(9, 5.5)
    ax = fig.add_subplot()
    chain = list(solution.get("chain", []))
    cmap = colormaps["viridis"]
    for i, row in enumerate(chain):
        win = [float(v) for v in row["win"]]
        ax.plot(range(len(win)), win, color=cmap(i / max(1, len(chain) - 1)),
                label=f"before {row['name']}")  # fmt: skip
    ax.set_xlabel("lead of the first mover (points)")
    ax.set_ylabel("first mover's win chance (ties count 1/2)")
    bound = float(solution.get("error_bound", 0))
    _title(fig, ax, "Decathlon, two players both playing to win: the first mover's win "
           f"chance by lead (leads past each curve: decided to within {bound:.0e})")  # fmt: skip
    ax.grid(alpha=0.3)
    # the curves are flat at 1 long before their bounds: show where they move
    moving = [next((d for d, v in enumerate(row["win"]) if v >= 0.9999), len(row["win"]))
              for row in chain]  # fmt: skip
    ax.set_xlim(0, max(moving, default=10) + 5)
    ax.set_ylim(0.4, 1.0)
    ax.legend(fontsize=8, loc="lower right")
    written = []
    for suffix in (".svg", ".png"):
        written.append(save(fig, out / f"decathlon-two-player-win{suffix}"))
    return written


def decathlon_event_plots(solution: Mapping[str, Any], out: Path) -> list[Path]:
    """One PMF plot per event of ``gamenight solve decathlon --json`` output: each
    event's exact score distribution under optimal play, EV marked. SVG and PNG."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for event in solution.get("events", [solution]):
        dist = _distribution(event)
        name = str(event.get("name", event.get("event", "event")))
        key = str(event.get("event", name)).replace("/", "-")
        values = sorted(dist)
        p_invalid = float(event.get("p_invalid") or 0.0)
        invalid = f" (P(no valid result) = {p_invalid:.1%}, not drawn)" if p_invalid else ""
        fig = pmf(
            values,
            [dist[v] for v in values],
            ev=float(event["ev"]) if "ev" in event else None,
            title=f"Decathlon, {name}: exact score distribution under optimal expected-score "
            f"play{invalid}",
        )
        for suffix in (".svg", ".png"):
            written.append(save(fig, out / f"decathlon-{key}{suffix}"))
    return written


def _distribution(event: Mapping[str, Any]) -> dict[float, float]:
    """The score PMF from a solution JSON (``distribution``/``pmf``: {score: p} or pairs)."""
    for field in ("distribution", "pmf", "score_distribution"):
        raw = event.get(field)
        if isinstance(raw, Mapping):
            return {float(k): float(v) for k, v in raw.items() if k not in ("null", "None")}
        if isinstance(raw, list):
            return {float(k): float(v) for k, v in raw if k is not None}
    raise KeyError(f"no score distribution in the solution of {event.get('event', '?')}")


def final_score_plot(
    samples: Sequence[float],
    out: Path,
    *,
    game: str,
    seed: int,
    policy: str,
    exact: float | None = None,
) -> list[Path]:
    """Histogram of Monte-Carlo final scores of ``policy`` (SVG and PNG)."""
    out.mkdir(parents=True, exist_ok=True)
    fig = histogram(
        samples,
        title=f"{game}: final scores of {len(samples)} games, {policy}, series seed {seed}",
        exact=exact,
    )
    stem = f"{game.lower().replace(' ', '-')}-final-scores"
    return [save(fig, out / f"{stem}{suffix}") for suffix in (".svg", ".png")]


def plot_solution(
    game: str,
    solution: Mapping[str, Any],
    out: Path,
    *,
    games: int = 2000,
    seed: int = 0,
    jobs: int | None = None,
) -> tuple[list[Path], dict[str, Any]]:
    """The plots of a solver's JSON result (``gamenight solve GAME --plot DIR``) and the
    figures they show. Decathlon: each event's exact PMF. Wurfeltod: a Monte-Carlo series
    of ``games`` solitaire games of the optimal policy (series ``seed``), whose final
    score distribution is reported (mean, sd, percentiles) and drawn."""
    if game == "decathlon" and solution.get("objective") == "two-player-win":
        return decathlon_win_chain_plot(solution, out), {}
    if game == "decathlon":
        return decathlon_event_plots(solution, out), {}
    if game == "wurfeltod":
        from gamenight.core import registry
        from gamenight.sim.series import run_series

        entry = registry.get("wurfeltod")
        report = run_series(entry, ["optimal"], games=games, seed=seed, jobs=jobs)
        samples = sorted(row.scores[0] for row in report.rows)
        n = len(samples)
        mean = sum(samples) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / max(1, n - 1))
        figures: dict[str, Any] = {
            "games": n,
            "seed": seed,
            "partial": report.partial,
            "mean": mean,
            "sd": sd,
            "se": sd / math.sqrt(n),
            "min": samples[0],
            "max": samples[-1],
            "percentiles": {
                str(q): samples[min(n - 1, int(q / 100 * n))] for q in (5, 25, 50, 75, 95)
            },
            "expected_score": solution.get("expected_score"),
        }
        paths = final_score_plot(
            samples,
            out,
            game="Wurfeltod",
            seed=seed,
            policy="optimal solitaire policy",
            exact=solution.get("expected_score"),
        )
        return paths, figures
    raise KeyError(f"no plots for {game}'s solution")
