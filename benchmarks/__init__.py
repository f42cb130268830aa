"""``make bench``: speed figures, each printed with a ratio against a baseline measured in
the same run. Kept beside the package: the library never imports it.
"""
