"""Optional accounts (issue 43; docs/accounts.md).

A guest plays exactly as without accounts. An account adds: its seats on every device,
a profile, and a rating per game. Modules:

* :mod:`.tables` — the accounts' tables (migration 0004);
* :mod:`.passwords` — Argon2id hashes, with the same work for an unknown name;
* :mod:`.store` — every read and write of accounts, sessions and results;
* :mod:`.ratings` — ratings as a pure function of the rated results (order-free);
* :mod:`.routes` — the HTTP API (``/api/account``...).
"""
