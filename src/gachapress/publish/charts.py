"""Charts for the rulebooks: inline SVG, no script, the number printed beside every bar.

The charts are drawn in a 440-unit wide box, about the width of a phone's text column, so at
phone width one unit is about one CSS pixel and the labels stay readable; on a wide screen the
stylesheet caps their width. The numbers are written to the right of the bars, with room for
about 26 characters. Every label is escaped: the charts are safe to inline in a page.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from gachapress.book.model import Bar, Span

WIDTH = 440
LABEL_WIDTH = 100
BAR_LEFT = LABEL_WIDTH + 6
BAR_WIDTH = 150
VALUE_LEFT = BAR_LEFT + BAR_WIDTH + 8
ROW = 22
TOP = 8
AXIS = 18


def _x(value: float, maximum: float, minimum: float = 0.0) -> float:
    if maximum <= minimum:
        return BAR_LEFT
    share = (value - minimum) / (maximum - minimum)
    return BAR_LEFT + BAR_WIDTH * max(0.0, min(1.0, share))


def _n(value: float) -> str:
    """A coordinate, short and stable."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _frame(chart_id: str, title: str, description: str, height: float, body: list[str]) -> Markup:
    head = (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {_n(height)}" role="img" '
        f'aria-labelledby="{escape(chart_id)}-t {escape(chart_id)}-d" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(chart_id)}-t">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-d">{escape(description)}</desc>'
    )
    return Markup(head + "".join(body) + "</svg>")


def _axis(y: float, minimum: float, maximum: float, low_text: str, high_text: str) -> list[str]:
    return [
        f'<line class="axis" x1="{BAR_LEFT}" y1="{_n(y)}" x2="{BAR_LEFT + BAR_WIDTH}" '
        f'y2="{_n(y)}"/>',
        f'<text class="tick" x="{BAR_LEFT}" y="{_n(y + 13)}">{escape(low_text)}</text>',
        f'<text class="tick" x="{BAR_LEFT + BAR_WIDTH}" y="{_n(y + 13)}" '
        f'text-anchor="end">{escape(high_text)}</text>',
    ]


def bar_chart(
    chart_id: str,
    title: str,
    bars: Sequence[Bar],
    *,
    maximum: float,
    axis: tuple[str, str],
    reference: float | None = None,
    reference_label: str | None = None,
) -> Markup:
    """Horizontal bars from 0 to ``maximum``, each with its number beside it.

    ``reference`` draws a dashed line (a fair share, say) labelled ``reference_label``;
    ``axis`` is the text under the two ends of the scale.
    """
    body: list[str] = []
    top = TOP + (14 if reference is not None else 0)
    for i, bar in enumerate(bars):
        y = top + i * ROW
        end = _x(bar.value, maximum)
        body.append(
            f'<text class="label" x="{LABEL_WIDTH}" y="{_n(y + 14)}" '
            f'text-anchor="end">{escape(bar.label)}</text>'
        )
        body.append(
            f'<rect class="bar" x="{BAR_LEFT}" y="{_n(y + 4)}" '
            f'width="{_n(max(end - BAR_LEFT, 0.5))}" height="13"/>'
        )
        if bar.low is not None and bar.high is not None:
            x1, x2 = _x(bar.low, maximum), _x(bar.high, maximum)
            mid = _n(y + 10.5)
            body.append(
                f'<path class="whisker" d="M{_n(x1)} {mid}H{_n(x2)}M{_n(x1)} {_n(y + 6)}V'
                f'{_n(y + 15)}M{_n(x2)} {_n(y + 6)}V{_n(y + 15)}"/>'
            )
        body.append(
            f'<text class="value" x="{VALUE_LEFT}" y="{_n(y + 14)}">{escape(bar.text)}</text>'
        )
    bottom = top + len(bars) * ROW
    if reference is not None:
        x = _n(_x(reference, maximum))
        body.append(
            f'<line class="reference" x1="{x}" y1="{TOP + 10}" x2="{x}" y2="{_n(bottom)}"/>'
        )
        if reference_label:
            body.append(
                f'<text class="reference-label" x="{x}" y="{TOP + 6}" '
                f'text-anchor="middle">{escape(reference_label)}</text>'
            )
    body.extend(_axis(bottom + 2, 0, maximum, *axis))
    description = "; ".join(f"{bar.label}: {bar.text}" for bar in bars)
    return _frame(chart_id, title, description, bottom + AXIS + 4, body)


def range_chart(
    chart_id: str,
    title: str,
    spans: Sequence[Span],
    *,
    minimum: float,
    maximum: float,
    axis: tuple[str, str],
) -> Markup:
    """One line per row from ``low`` to ``high`` with a mark at ``mid``, its numbers beside it."""
    body: list[str] = []
    for i, span in enumerate(spans):
        y = TOP + i * ROW
        x1 = _x(span.low, maximum, minimum)
        x2 = _x(span.high, maximum, minimum)
        xm = _x(span.mid, maximum, minimum)
        body.append(
            f'<text class="label" x="{LABEL_WIDTH}" y="{_n(y + 14)}" '
            f'text-anchor="end">{escape(span.label)}</text>'
        )
        body.append(
            f'<rect class="span" x="{_n(x1)}" y="{_n(y + 6)}" '
            f'width="{_n(max(x2 - x1, 1.5))}" height="9" rx="3"/>'
        )
        body.append(f'<rect class="mid" x="{_n(xm - 1.5)}" y="{_n(y + 3)}" width="3" height="15"/>')
        body.append(
            f'<text class="value" x="{VALUE_LEFT}" y="{_n(y + 14)}">{escape(span.text)}</text>'
        )
    bottom = TOP + len(spans) * ROW
    body.extend(_axis(bottom + 2, minimum, maximum, *axis))
    description = "; ".join(f"{span.label}: {span.text}" for span in spans)
    return _frame(chart_id, title, description, bottom + AXIS + 4, body)
