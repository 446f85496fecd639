"""Bridges to other game frameworks (optional extras): OpenSpiel for now."""
