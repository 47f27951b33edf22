"""The terminal app (Textual): a thin face over the library.

:mod:`.klondike` is the Klondike table (``cardtable play``), :mod:`.table`
draws it and maps clicks to places, and :mod:`.autosave` keeps the game in
progress in the per-user data folder. The library never imports this package.
"""
