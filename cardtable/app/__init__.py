"""The terminal app (Textual): a thin face over the library.

:mod:`.klondike` is the Klondike table (``cardtable play``), :mod:`.table`
draws it and maps clicks to places, and :mod:`.autosave` keeps the game in
progress in the per-user data folder. :mod:`.patience` is every other
patience game's table (``cardtable play GAME``), drawn by
:mod:`.patience_table` from the game's layout, its autosave and statistics
kept by :mod:`.patience_books`. The library never imports this package.
"""
