"""The agent layer: what an agent may ask (the verbs and their arguments' contract), what it is
answered, and the one error shape. REST (``memories.api``) and MCP (``memories.mcp``) are two
thin doors over it; nothing here speaks HTTP."""
