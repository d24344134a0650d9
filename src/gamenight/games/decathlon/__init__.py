"""Reiner Knizia's Decathlon: ten dice events, the points game and the Championship (D1-D12)."""
