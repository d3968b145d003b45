"""`gachapress export`: files for print shops and Tabletop Simulator, drawn from the same
resolved faces as the print-and-play PDFs."""

#: The export targets, each planned by the ``plan`` function of this package's module of its name
#: (kept here so that the command line knows them without loading the rendering code).
TARGETS = ("png", "tgc", "dtc", "tts")
