"""The table of the connection methods' positional parameters (acp_migrate/rules/shared/
sdk_signatures.py, which ACP220 reads) against the releases themselves: on each release
from 0.7.0 to 1.0 (1.0.0rc3 on the index), `inspect.signature` of every method the table
names, on `ClientSideConnection`, `AgentSideConnection` and the `Agent`/`Client`
protocols, gives the table's parameters, or the method is absent where the table says
so."""

from __future__ import annotations

import json
import subprocess

import pytest
from support.sdk_venv import sdk_env, sdk_python

from acp_migrate.rules.shared.sdk_signatures import DEFAULTS_NONE, SIGNATURES, UNCHANGED, parameters
from acp_migrate.sdk import RELEASES, at_least

pytestmark = pytest.mark.slow  # a virtualenv per release

# What the index holds of each release acp-migrate knows (1.0: its latest pre-release).
INSTALLED = {"1.0.0": "1.0.0rc3"}
CLASSES = ("ClientSideConnection", "AgentSideConnection", "Agent", "Client")
# Each class's methods' positional parameters after `self` (a class defining a method
# takes it; one the SDK does not define is left out).
READ = """
import inspect, json, sys, warnings
warnings.simplefilter("ignore", DeprecationWarning)  # the connections' deprecation notes
import acp
found = {}
for name in sys.argv[1].split(","):
    for method in sys.argv[2].split(","):
        function = getattr(getattr(acp, name), method, None)
        if function is not None:
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            taken = [p for p in inspect.signature(function).parameters.values() if p.kind in kinds]
            # a parameter defaulting to None is marked `=None`
            found.setdefault(method, {})[name] = [p.name + "=None" * (p.default is None) for p in taken[1:]]
print(json.dumps(found))
"""
KEYWORD_ERA = [version for version in RELEASES if at_least(version, "0.7.0")]


@pytest.mark.parametrize("version", KEYWORD_ERA)
def test_the_table_holds_each_releases_own_signatures(version: str) -> None:
    methods = sorted({*SIGNATURES, *UNCHANGED})
    done = subprocess.run(
        [str(sdk_python(INSTALLED.get(version, version))), "-c", READ, ",".join(CLASSES), ",".join(methods)],
        env=sdk_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    for method in methods:
        expected = parameters(method, version)
        on_classes = {name: [p.removesuffix("=None") for p in taken] for name, taken in found.get(method, {}).items()}
        if expected is None:
            assert on_classes == {}, (method, on_classes)
        else:
            # Every class defining it takes the table's parameters, and some class does.
            assert on_classes and set(map(tuple, on_classes.values())) == {expected}, (method, on_classes)
        if "Client" in on_classes:  # a client's handler: which of its parameters default to None
            defaulted = {p.removesuffix("=None") for p in found[method]["Client"] if p.endswith("=None")}
            assert defaulted == DEFAULTS_NONE.get(method, set()), (method, defaulted)
