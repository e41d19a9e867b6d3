"""How a result object shows in a notebook: one short line, or a small HTML table.

A dataclass's own repr prints every field; a report's is ~20,000 characters, which a
notebook cell then dumps. A result class lists the few facts worth a glance
(`glance`), and gets both views from them. Declare the dataclass with ``repr=False``,
or the dataclass writes its own repr over this one.
"""

from __future__ import annotations

from collections.abc import Sequence

REPR_LIMIT = 300
"""At most this many characters in a result's repr."""
NAMES_SHOWN = 4


def names(items: Sequence[str], limit: int = NAMES_SHOWN) -> str:
    """``keyword, dense, +3 more``: a list of names short enough for a glance."""
    shown = ", ".join(items[:limit])
    return f"{shown}, +{len(items) - limit} more" if len(items) > limit else shown


class Glanceable:
    """A result whose repr and notebook view are its `glance`, not all its fields."""

    def glance(self) -> list[tuple[str, str]]:
        """(label, value) of the facts worth a glance, most telling first."""
        raise NotImplementedError

    def __repr__(self) -> str:
        facts = ", ".join(f"{label}={value}" for label, value in self.glance())
        text = f"<{type(self).__name__} {facts}>"
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 4] + "...>"

    def _repr_html_(self) -> str:
        """Jupyter's view: the same facts as a two-column table, every value escaped."""
        import html  # a notebook's, not the command line's start-up

        rows = "".join(
            f"<tr><th>{html.escape(label)}</th><td>{html.escape(value)}</td></tr>"
            for label, value in self.glance()
        )
        caption = html.escape(f"reportgen {type(self).__name__}")
        return f"<table><caption>{caption}</caption><tbody>{rows}</tbody></table>"
