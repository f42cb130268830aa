"""Dealing real shoes: shuffle, burn and cut card, the reference simulator, and hand logs
(reading every log dialect, writing the simulator's). Imports the rules and the engine.
"""

__all__: list[str] = []
