"""Heads-up choice games (one player against the banker): the game as exact payoff arrays
(:mod:`.game`), its certified equilibrium (:mod:`.solver`), the exact win, push and loss
probabilities of a strategy pair (:mod:`.outcomes`) and an independent brute-force matrix
game (:mod:`.matrix_game`).
"""

__all__: list[str] = []
