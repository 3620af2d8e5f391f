"""Agents over MCP: the agent operations as MCP tools at /mcp/ (SPEC §5)."""
