"""Publishing: the HTML rulebooks, their statistics and charts, and the site index."""
