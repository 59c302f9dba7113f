"""Log each agent the SDK makes."""

import functools
import logging

log = logging.getLogger(__name__)


def traced(factory):
    @functools.wraps(factory)
    def make(conn):
        log.info("making an agent")
        return factory(conn)

    return make
