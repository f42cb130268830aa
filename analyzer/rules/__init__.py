"""The rules layer: cards, shoes, bet conditions, profiles (tableau, paytables, shoe procedure,
choice-game rules) and how a bet settles. Games are data: TOML profiles loaded into frozen,
self-validating records. Imports nothing above it.
"""

__all__: list[str] = []
