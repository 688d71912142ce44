"""PostgreSQL for the tests: a server, an empty database per test, and storage on each engine.

The server is the one BSWTICHU_TEST_POSTGRES names (a URL: .ci/run starts a throwaway
cluster with `.ci/postgres start DIR` and exports it), else one this session starts the
same way when Debian's ``postgresql`` is installed, else the tests that need one skip
naming the package.  Each test gets a database of its own, dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from glob import glob
from pathlib import Path

import pytest

from bswtichu.storage import Storage
from bswtichu.storage.accounts import ScryptCost

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "postgres"
MISSING = "PostgreSQL is missing (Debian package postgresql; or set BSWTICHU_TEST_POSTGRES to a server's URL)"
ENGINES = ("sqlite", "postgresql")
CHEAP = ScryptCost(n=2 ** 8)
_numbers = itertools.count(1)


def _installed() -> bool:
    return bool(glob("/usr/lib/postgresql/*/bin/initdb")) or shutil.which("initdb") is not None


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a PostgreSQL server's database this session may create databases from."""
    url = os.environ.get("BSWTICHU_TEST_POSTGRES")
    if url:
        yield url
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is missing: pip install -e '.[test]' brings it")
    if not _installed():
        pytest.skip(MISSING)
    folder = tempfile.mkdtemp(prefix="bswtichu-pg-")
    try:
        started = subprocess.run([str(SCRIPT), "start", folder], capture_output=True, text=True, timeout=60)
        if started.returncode != 0:
            pytest.skip(f"{MISSING}: the throwaway cluster did not start: {started.stderr.strip()}")
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([str(SCRIPT), "stop", folder], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server):
    """A new, empty database on the test server, dropped when the test ends."""
    import psycopg

    name = f"bswtichu_t{os.getpid()}_{next(_numbers)}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_server.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=ENGINES)
def engine_database(request):
    """Where a test's database is, on each engine in turn: ``:memory:`` (SQLite) or a new
    PostgreSQL database's URL."""
    if request.param == "sqlite":
        return ":memory:"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def engine_storage(engine_database):
    """``open(**kwargs)``: a `Storage` on the test's engine (closed when the test ends)."""
    opened: list[Storage] = []

    def open_storage(**kwargs) -> Storage:
        kwargs.setdefault("cost", CHEAP)
        storage = Storage.open(engine_database, **kwargs)
        opened.append(storage)
        return storage

    yield open_storage
    for storage in opened:
        storage.close()
