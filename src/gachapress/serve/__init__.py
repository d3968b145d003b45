"""`gachapress serve`: a local preview of out/ that rebuilds on every save and reloads the page.

``live`` holds what open pages are told, ``rebuild`` maps saved files to games and builds them,
``gallery`` and ``sheets`` make the preview's own pages, ``files`` serves out/ safely and ``app``
puts them together as a Starlette application.
"""
