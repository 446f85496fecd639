"""Write ``v4-store.sqlite3``: a match store as the code of schema version 4 wrote it, before
the store ran on PostgreSQL (kept so that every later version is tested on a store it did not
write itself; see ``tests/store/test_legacy_store.py``).

Run it from the repository root with that code on the path, e.g. a checkout of it::

    PYTHONPATH=CHECKOUT/src:. python tests/store/data/make_v4_store.py
"""

from __future__ import annotations

import sqlite3

from tests.store.legacy import FIXTURE, write_fixed, write_played

from kessen.store import MatchStore


def main() -> None:
    """Write the store file anew (the fixed records first, so their ids are 1 to 4)."""
    FIXTURE.unlink(missing_ok=True)
    with MatchStore(FIXTURE) as store:
        assert store.schema_version == 4
        write_fixed(store)
        write_played(store)
    conn = sqlite3.connect(FIXTURE)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
