"""The probe's caps: what bounds a run's memory and a report's size, whatever the agent
writes. Each is an option (`--max-frames`, `--max-bytes`, `--max-findings`) and stated in
the report when reached."""

MAX_FRAMES = 10_000  # frames recorded, both directions: then the run stops (exit 2)
MAX_BYTES = 256 << 20  # bytes the agent may write on stdout in one run (a 64 MB frame fits)
MAX_FINDINGS = 1000  # findings, and notes, a report shows (the verdict counts them all)
MAX_REPORT_CHARS = 4 << 20  # a text, github, timeline or mermaid report is cut there
MESSAGE_CHARS = 1000  # a finding's message names what it is about; a 64 MB list is not repeated
LABEL_CHARS = 200  # a timeline row's label
