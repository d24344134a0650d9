# The fixtures live in server_fixtures.py (type-checked); mypy skips this file because
# every test folder's conftest.py would be a module named "conftest".
from server_fixtures import db_url, pg, pg_pair, server, sqlite_url

__all__ = ["db_url", "pg", "pg_pair", "server", "sqlite_url"]
