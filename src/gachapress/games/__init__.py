"""The example project's five games, one package each, shaped like their siblings; each
registers through the ``gachapress.games`` entry points (see ``gachapress.registry``)."""
