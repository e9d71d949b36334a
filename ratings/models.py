"""Rating storage (none yet: the ratings work adds it; the maths lives in ratings/elo.py)."""
