"""Toy Pig, a gamenight game shipped as a plug-in (``game.py`` holds ``GAME``)."""
