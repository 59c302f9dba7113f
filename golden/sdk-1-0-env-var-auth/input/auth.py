from acp import schema
from acp.schema import AuthEnvVar, EnvVarAuthMethod

API_KEY = EnvVarAuthMethod(type="env_var", id="api-key", name="API key", vars=[AuthEnvVar(name="API_KEY")])
METHOD_TYPE = schema.AuthMethodEnvVar
