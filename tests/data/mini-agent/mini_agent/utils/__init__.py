"""Utility modules for Mini-Agent."""

from .terminal_utils import (
    calculate_display_width,
    pad_to_width,
    truncate_with_ellipsis,
)

__all__ = [
    "calculate_display_width",
    "pad_to_width",
    "truncate_with_ellipsis",
]

