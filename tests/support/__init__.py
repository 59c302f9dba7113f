"""Test helpers shared by the acp-migrate test suite."""
