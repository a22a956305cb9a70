"""Playing against the AI: difficulty levels (:mod:`catsearch.play.levels`), the browser
(:mod:`catsearch.play.web`, ``catsearch-play --web``) and the terminal (``--human``).

A top layer: it may import everything below it; nothing below imports it.
"""
