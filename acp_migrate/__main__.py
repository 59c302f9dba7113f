"""`python -m acp_migrate`, the same as the `acp-migrate` command."""

from acp_migrate.cli import main

if __name__ == "__main__":
    main()
