"""Card faces: one layout model per deck, resolved per card, drawn by an SVG and a PDF backend."""
