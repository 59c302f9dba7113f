# acp-migrate: vendored runtime 0.2.0, written by `acp-migrate fix`.
