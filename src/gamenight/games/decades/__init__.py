"""The Decades (seed 002, rulings T1-T7): two teams secretly bet on years, then play cards."""
