"""Live tables: the pure per-viewer state logic (``state``) shared by the consumer and tests."""
