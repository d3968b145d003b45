"""Play a game in the browser against the bots: ``session`` keeps the games being played (the
engine is the only referee), ``present`` turns a seat's observation into the page's table in
players' words, ``routes`` serves the Play page and its JSON calls."""
