"""Rulesets built on the kernel; each subpackage registers itself when imported."""
