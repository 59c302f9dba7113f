# acp-migrate: vendored runtime (stands for the shim this release writes: tests/test_golden.py)
