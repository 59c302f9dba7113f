"""Schema definitions for Mini-Agent."""

from .schema import (
    FunctionCall,
    LLMProvider,
    LLMResponse,
    Message,
    TokenUsage,
    ToolCall,
)

__all__ = [
    "FunctionCall",
    "LLMProvider",
    "LLMResponse",
    "Message",
    "TokenUsage",
    "ToolCall",
]
