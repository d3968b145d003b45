"""The files `gachapress new` writes: a sample game that checks and builds at once."""
