"""The statistics of the verifier: tail probabilities (:mod:`.distributions`), goodness-of-fit
tests, Holm's adjustment and power (:mod:`.statistics`), shoe-aware exact moments
(:mod:`.moments`), shuffle-quality tests (:mod:`.shuffle`) and the deck count a log's whole
shoes show (:mod:`.decks`)."""
__all__: list[str] = []
