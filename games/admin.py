"""Admin registrations for games (no models yet)."""
