"""The tool-call task family: tool-calling answers, verified and re-instantiated."""

from stepcache_integrations.core.tasks.tool_call.document import (
    DocumentCall,
    DocumentError,
    ReadAnswer,
    ToolCallDocument,
    escape_plain,
    read_answer,
    write_document,
)
from stepcache_integrations.core.tasks.tool_call.family import ToolCallFamily, ToolCallSegmenter
from stepcache_integrations.core.tasks.tool_call.tools import (
    AFTER_TOOL_RESULT,
    EARLIER_TURNS,
    PURE,
    TOOLS,
)
from stepcache_integrations.core.tasks.tool_call.verifier import ToolCallVerifier

__all__ = [
    "AFTER_TOOL_RESULT",
    "EARLIER_TURNS",
    "PURE",
    "TOOLS",
    "DocumentCall",
    "DocumentError",
    "ReadAnswer",
    "ToolCallDocument",
    "ToolCallFamily",
    "ToolCallSegmenter",
    "ToolCallVerifier",
    "escape_plain",
    "read_answer",
    "write_document",
]
