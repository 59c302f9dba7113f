# The project root on sys.path: the tests import agent.py
