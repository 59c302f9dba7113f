"""Output formats for a run. Findings know nothing of them; each format reads a RunResult."""
