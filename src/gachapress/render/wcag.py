"""WCAG 2 colour contrast, and the text colours a layout can ask for by it: ink that reads on a
colour (``{suit.hex|ink}``) and a colour deepened until it reads on paper
(``{suit.hex|deep}``)."""

from __future__ import annotations

#: The text inks a layout picks between for ``|ink``: the default dark text, and white.
DARK, LIGHT = "#222222", "#ffffff"
#: What ``|deep`` reaches against white paper: WCAG AA's 4.5:1 with room for an off-white panel.
DEEP = 5.0


def luminance(colour: str) -> float:
    """The WCAG relative luminance of a ``#rrggbb`` colour."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(colour: str) -> str:
    """White or dark text for a ground of ``colour``: white while it reads at 4.5:1, else dark."""
    return LIGHT if contrast(LIGHT, colour) >= 4.5 else DARK


def deepen(colour: str, target: float = DEEP) -> str:
    """``colour`` mixed with black, as little as gives ``target``:1 against white paper (the
    colour itself when it already does), so a suit colour stays recognisable as text."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    for step in range(101):
        keep = 1 - step / 100
        mixed = "#" + "".join(f"{round(v * keep):02x}" for v in rgb)
        if contrast(mixed, LIGHT) >= target:
            return mixed
    return "#000000"


#: The colour formats of a layout's colours, by name.
COLOUR_FORMATS = {"ink": ink_on, "deep": deepen}
