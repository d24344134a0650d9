"""Wurfeltod (seed 004, rulings W1-W5): six dice, 20 boxes, and a -250 Wurfeltod for waste."""
