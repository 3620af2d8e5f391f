"""Judgments and conflicts of the hygiene pipeline (SPEC §6); see the review issue."""
