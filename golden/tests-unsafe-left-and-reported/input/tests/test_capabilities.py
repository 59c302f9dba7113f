# Case: tests that check the field together with other things in a way fix cannot split are left as they are, and reported
import unittest

from acp.schema import AgentCapabilities, AvailableCommand


def test_one_assertion_checks_both():
    caps = AgentCapabilities(load_session=True, slash_commands=[AvailableCommand(name="plan", description="Plan")])
    assert caps.load_session and len(caps.slash_commands) == 1


def test_the_field_is_used_outside_an_assertion(client):
    caps = AgentCapabilities(load_session=True)
    client.advertise(caps.slash_commands)
    assert caps.load_session


class CapabilitiesTest(unittest.TestCase):
    def test_both_at_once(self):
        caps = AgentCapabilities(load_session=True)
        self.assertTrue(caps.load_session and caps.slash_commands == [])
