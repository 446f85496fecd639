"""A private PostgreSQL server in a temporary directory, for the tests and the benchmarks.

:class:`LocalServer` runs ``initdb`` and ``postgres`` from the machine's PostgreSQL binaries
(:func:`find_binaries`: the ``PATH``, then Debian's ``/usr/lib/postgresql/<version>/bin``,
then ``pg_config --bindir``) on a free port of 127.0.0.1 (no Unix socket), with a data
directory that is removed when it stops. PostgreSQL refuses to run as root, so a root process
runs it as the ``postgres`` user (Debian's package creates it), else as ``nobody``.

Each store gets its own schema (:meth:`LocalServer.new_store`), so one server serves many
tests. ``durable=False`` (the tests) turns off ``fsync`` and synchronous commits for speed;
the benchmarks keep PostgreSQL's defaults.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Final

import psycopg

PROGRAMS: Final = ("initdb", "postgres")
USER: Final = "kessen"
"""The superuser of a local server (trust authentication, 127.0.0.1 only)."""
DATABASE: Final = "kessen"
START_TIMEOUT: Final = 60.0


class ServerError(RuntimeError):
    """The local PostgreSQL server could not be set up or started (the message says why)."""


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.parent.name)) or (0,)


def find_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``postgres``, or ``None`` if this machine has no
    PostgreSQL server programs."""
    found = shutil.which("initdb")
    candidates: list[Path] = []
    if found:
        candidates.append(Path(found).resolve().parent)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version, reverse=True)
    candidates += debian
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            candidates.append(Path(out.stdout.strip()))
    for directory in candidates:
        if all((directory / name).is_file() for name in PROGRAMS):
            return directory
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_as() -> pwd.struct_passwd | None:
    """The account to run PostgreSQL as when this process is root (else ``None``)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ServerError("running as root, and there is no postgres or nobody user to run as")


class LocalServer:
    """A throwaway PostgreSQL server (see the module's text); a context manager."""

    def __init__(self, bindir: Path | None = None, *, durable: bool = True) -> None:
        found = bindir or find_binaries()
        if found is None:
            raise ServerError(
                "no PostgreSQL server programs (initdb, postgres) on this machine; install "
                "them (Debian: apt install postgresql)"
            )
        self.bindir = found
        self.durable = durable
        self.port = 0
        self.root: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The URL of the server's ``kessen`` database (its ``public`` schema)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> LocalServer:
        """Create the data directory, start the server, create the database."""
        account = _run_as()
        self.root = Path(tempfile.mkdtemp(prefix="kessen-pg-"))
        data = self.root / "data"
        data.mkdir()
        uid = gid = None
        groups: list[int] | None = None
        if account is not None:
            groups = []
            uid, gid = account.pw_uid, account.pw_gid
            os.chown(self.root, uid, gid)
            os.chown(data, uid, gid)
        env = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}
        command = [str(self.bindir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust"]
        initdb = subprocess.run(
            [*command, "-E", "UTF8", "--locale=C", "--no-sync"],
            capture_output=True,
            env=env,
            cwd=self.root,
            check=False,
            user=uid,
            group=gid,
            extra_groups=groups,
        )
        if initdb.returncode != 0:
            self.stop()
            raise ServerError(f"initdb failed: {initdb.stderr.decode(errors='replace')[-2000:]}")
        self.port = _free_port()
        settings = ["listen_addresses=127.0.0.1", "unix_socket_directories=", "max_connections=50"]
        if not self.durable:
            settings += ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        args = [str(self.bindir / "postgres"), "-D", str(data), "-p", str(self.port)]
        for setting in settings:
            args += ["-c", setting]
        log = (self.root / "server.log").open("wb")
        if uid is not None and gid is not None:
            os.chown(self.root / "server.log", uid, gid)
        self._process = subprocess.Popen(
            args,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.root,
            user=uid,
            group=gid,
            extra_groups=groups,
        )
        log.close()
        self._wait_ready()
        with psycopg.connect(self.admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        return self

    def admin_url(self, database: str = DATABASE) -> str:
        """The URL of one of the server's databases."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert self._process is not None
            if self._process.poll() is not None:
                text = self.log()
                self.stop()
                raise ServerError(f"postgres exited at start: {text[-2000:]}")
            try:
                with psycopg.connect(self.admin_url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    text = self.log()
                    self.stop()
                    raise ServerError(f"postgres did not start in time: {text[-2000:]}") from None
                time.sleep(0.1)

    def log(self) -> str:
        """The server's log so far."""
        if self.root is None:
            return ""
        path = self.root / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def new_store(self, name: str | None = None) -> str:
        """A URL of a new, empty schema of the database: a store of its own."""
        schema = name or f"store_{uuid.uuid4().hex[:12]}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ValueError(f"not a plain schema name: {schema!r}")
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return f"{self.url}?options=-csearch_path%3D{schema}"

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its directory."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
