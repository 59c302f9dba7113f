# The planner package: its agent takes its capabilities from config.py's settings.
