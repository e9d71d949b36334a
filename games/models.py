"""Game tables and deal records (none yet: the live-tables work adds them)."""
