"""Choice games played hand by hand with real cards: one dealer for every hand
(:mod:`.table_log`: the rules replayed, each side's draw from its strategy file, seeded logs)
and rotating-bank sessions with their exact expected nets (:mod:`.session`).
"""

__all__: list[str] = []
