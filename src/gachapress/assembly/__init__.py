"""Assembling the publishable outputs for `gachapress build`: incremental, atomic, across
processes. (Named apart from the generated ``build/`` folder, which holds caches and stages.)"""
