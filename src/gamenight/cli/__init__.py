"""The command line and terminal play: presentation only, no rules."""
