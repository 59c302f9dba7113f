# acp-migrate: vendored runtime 0.0.1 - written by `acp-migrate fix`; run it again to refresh; do not edit.
"""An older copy of the shim."""


class CommandAdvertiser:
    pass
