# The package the agent module lives in: its shim is imported relatively.
