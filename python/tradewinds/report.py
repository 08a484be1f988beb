"""The balance report: one self-contained HTML page of a game's design metrics.

:func:`balance_report` (``tradewinds balance GAME --out report.html``) writes the metric
table, the figures (seat advantage with 95% intervals, score distributions, game length
distributions and, with a sweep, its response curves), the sweep's tables, the exact command,
the versions of the software and the seeds that reproduce it. The figures are inline SVG
drawn by matplotlib; the page loads nothing from anywhere (its content security policy
forbids it), so it opens from a file, offline. Needs matplotlib (``pip install
'tradewinds[plot]'``).
"""

from __future__ import annotations

import html
import io
import json
import platform
import re
from importlib import metadata
from typing import Any

import numpy as np

from ._optional import import_optional
from .balance import _BOOTSTRAP_SEED, Metrics
from .simulation import SimulationResult
from .sweep import BOOTSTRAP_SEED, SweepResult

__all__ = ["balance_report", "versions"]

_NEEDS = ("the balance report", "matplotlib", "`pip install 'tradewinds[plot]'`")

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
table.metrics td:nth-child(5), table.metrics td:nth-child(6) { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
.failed { color: #a00; } dl { display: grid; grid-template-columns: max-content auto; gap: 2px 1em; }
dt { font-weight: bold; } dd { margin: 0; }
"""


def versions() -> dict[str, str]:
    """The versions of the software a report was made with."""
    out = {"tradewinds": metadata.version("tradewinds"), "python": platform.python_version(),
           "numpy": np.__version__}
    for name in ("matplotlib", "pandas", "pyarrow", "dask"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    out["platform"] = platform.platform()
    return out


def _svg(fig: Any, salt: str) -> str:
    """A figure as inline SVG (no XML prolog), its element ids salted so that several
    figures share a page without clashing, and without a date (the same figure, the same text)."""
    matplotlib = import_optional("matplotlib", *_NEEDS)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _lengths_figure(result: SimulationResult) -> Any:
    """Histograms of the games' lengths: decisions, moves and (measured) turns a game."""
    figure_mod = import_optional("matplotlib.figure", *_NEEDS)
    agg = import_optional("matplotlib.backends.backend_agg", *_NEEDS)
    series = {"decisions": result.decisions, "moves": result.moves}
    turns = result.arrays["turns"]
    if result.games and bool((turns >= 0).all()):
        series["turns"] = turns
    fig = figure_mod.Figure(figsize=(4.0 * len(series), 3.2), layout="constrained")
    agg.FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(series), squeeze=False).ravel()
    for ax, (name, values) in zip(axes, series.items()):
        v = np.asarray(values, dtype=np.float64)
        if len(v):
            ax.hist(v, bins=min(50, max(5, len(np.unique(v)))), color="C0", alpha=0.8)
            ax.axvline(float(v.mean()), color="C3", linestyle="--", linewidth=1, label=f"mean {v.mean():.1f}")
            ax.legend(fontsize=8)
        ax.set_xlabel(f"{name} per game")
        ax.set_ylabel("games")
    fig.suptitle(f"Game length distributions ({result.games:,} games)")
    return fig


def _metrics_table(m: Metrics) -> str:
    head = "".join(f"<th>{h}</th>" for h in ["metric", "value", "95% interval", "games", "Ludii", "note"])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in m._rows())
    extra = ""
    if m.seat_test is not None:
        t = m.seat_test
        extra = (f"<p>Do the seats win equally often? Chi-square {t.statistic:.2f} on {t.df} df, "
                 f"p = {t.p_value:.3g} (sole wins by seat: {', '.join(map(str, t.wins))}).</p>")
    return f"<table class='metrics'><tr>{head}</tr>{body}</table>{extra}"


def balance_report(
    result: SimulationResult,
    *,
    sweep: SweepResult | None = None,
    command: str | None = None,
    data: str | None = None,
    title: str | None = None,
) -> str:
    """The balance report of ``result`` (a run with its games; with ``metrics=True`` for the
    trajectory metrics) as one self-contained HTML page; ``sweep``: a sweep of the same game
    whose tables and response curves it adds; ``command``: the command that made it, shown to
    reproduce it; ``data``: the data file the game was loaded from (None: the shipped one)."""
    m = result.metrics()
    figures = [("Seat advantage and score distributions",
                "Each seat's win rate with its 95% Wilson interval, and the distribution of each seat's final score.",
                result.figure(title="")),
               ("Game length", "The distributions of the games' lengths, with their means.", _lengths_figure(result))]
    if sweep is not None:
        figures.append(("Response curves",
                        "Each metric's difference from the base game with its 95% paired interval, against the "
                        "swept value.", sweep.figure()))
    config = {"game": result.game, **{k: v for k, v in result.options.items() if k != "data"}}
    seeds: dict[str, Any] = {"seed": result.seed, "games": result.games, "agents": ", ".join(result.agents),
                             "metric bootstrap seed": _BOOTSTRAP_SEED}
    if sweep is not None:
        seeds["sweep bootstrap"] = f"{sweep.bootstrap:,} paired resamples, seed {BOOTSTRAP_SEED}"
    name = title or f"{result.game}: balance report"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        # Nothing is loaded from anywhere: the page holds everything it shows.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="tradewinds">',
        f"<title>{html.escape(name)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{html.escape(name)}</h1>",
        f"<p>{result.games:,} games of {html.escape(result.game)}, {result.players} "
        f"seat{'s' if result.players != 1 else ''} ({html.escape(', '.join(result.agents))}); configuration "
        f"<code>{html.escape(json.dumps(config))}</code>; component data: "
        f"{html.escape(data) if data else 'the shipped file'}.</p>",
        "<h2>Reproduce</h2>",
    ]
    if command:
        parts.append(f"<pre id='command'>{html.escape(command)}</pre>")
    parts.append("<dl>" + "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(str(v))}</dd>"
                                  for k, v in seeds.items()) + "</dl>")
    parts.append("<h2>Versions</h2><dl>" + "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>"
                                                   for k, v in versions().items()) + "</dl>")
    parts.append("<h2>Metrics</h2>")
    parts.append("<p>Each with its 95% interval (the metrics and their intervals are defined in the "
                 "documentation's page on game-design metrics).</p>")
    parts.append(_metrics_table(m))
    for k, (heading, caption, fig) in enumerate(figures):
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        parts.append(f"<figure>{_svg(fig, f'tradewinds-figure-{k}')}<figcaption>{html.escape(caption)}"
                     "</figcaption></figure>")
    if sweep is not None:
        parts.append("<h2>Sweep</h2>")
        parts.append(f"<p>{html.escape(sweep._title())}. Each metric of each variant less the base game's, with "
                     f"its 95% paired interval.</p>")
        parts.append(sweep.html_tables())
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def external_loads(page: str) -> list[str]:
    """Where the page would load something from outside itself: ``src``/``href`` attributes and
    CSS ``url(...)`` that are not ``data:`` or in-page (``#...``) references."""
    refs = re.findall(r"""(?:\bsrc|\bhref|xlink:href)\s*=\s*["']([^"']*)["']""", page)
    refs += re.findall(r"url\(\s*['\"]?([^)'\"]*)", page)
    return [r for r in refs if not (r.startswith("#") or r.startswith("data:"))]

