"""The engine: discover files, prefilter, parse, apply every rule, report. Knows no single rule."""
