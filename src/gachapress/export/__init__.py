"""`gachapress export`: files for print shops and Tabletop Simulator, drawn from the same
resolved faces as the print-and-play PDFs."""
