"""Table strategies stored as files: the certificates ``nine certify`` ships (checked again
exactly when read) and the strategies a run keeps in the cache folder for the next."""

__all__: list[str] = []
