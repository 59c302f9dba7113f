"""The execution room: discovery, file I/O, the worker pool and the run (`runner.run`)."""
