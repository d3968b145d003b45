"""Building the publishable outputs: incremental, atomic, across processes."""
