# acp-migrate: vendored runtime 0.2.0 - written by `acp-migrate fix`; run it again to refresh; do not edit.
