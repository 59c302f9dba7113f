"""LLM clients package supporting both Anthropic and OpenAI protocols."""

from .anthropic_client import AnthropicClient
from .base import LLMClientBase
from .llm_wrapper import LLMClient
from .openai_client import OpenAIClient

__all__ = ["LLMClientBase", "AnthropicClient", "OpenAIClient", "LLMClient"]

