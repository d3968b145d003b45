"""The rulebook as a model: what a book says, built from a game's data and verified by its
engine, independent of how it is printed (``publish/book_html.py``, ``publish/book_pdf.py``)."""
