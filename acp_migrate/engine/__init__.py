"""The engine, in two rooms that meet at one entry (`engine.analysis`):

- `analysis/`: one source in, findings and the fixed source out: prefilter, parse,
  one traversal of every rule, suppressions, edits, import clean-up. Given the rules,
  knowing none; no files, no processes.
- `execution/`: the run: discover files, read and write them, the worker pool,
  interruption, the project-wide decision; it calls the analysis through the entry.
"""
