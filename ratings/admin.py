"""Admin registrations for ratings (no models yet)."""
