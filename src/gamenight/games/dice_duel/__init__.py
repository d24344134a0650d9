"""Kniffel Dice Duel (seed 001, rulings K1–K7): roll five dice up to three times and
collect scoring chips from the plate; multiplayer (2–6) and solo."""
