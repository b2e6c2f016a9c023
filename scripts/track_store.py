"""The SQLite database of track.py: machines (fingerprints), runs and their points.

Schema (one file, default results/history.sqlite):
  meta(key, value)                 ("schema", SCHEMA): marks a track.py database
  machines(id, fingerprint)        id = "m" + 6 hex digits of the fingerprint's hash; JSON
  runs(id, hash, machine, commit_sha, date, kind, host, file, added)
                                   hash: of the run's content, unique (a run is stored once)
  points(run, backend, op, np, bytes, pair, unit, median, reps, cpu_stall_us, contended,
         oversubscribed, wrong, cpu_steal_us, placement_before_us, placement_after_us)
                                   reps: JSON list of the repetition times; pair "" when none;
                                   cpu_steal_us: CPU time the hypervisor took (/proc/stat steal);
                                   placement_*: the row's placement probe (None without one)
Every add is one transaction: all of its files or none. A database of schema 1 (no
cpu_steal_us) or 2 (no placement columns) is upgraded by the first add, every row kept; read as
it is, its points have no steal or probe (None).
"""

import json
import os
import pathlib
import sqlite3

import comops_results as cr

SCHEMA = "comops-track 3"
OLD_SCHEMAS = ("comops-track 1", "comops-track 2")  # read as they are; add upgrades them
_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE machines (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
                   machine TEXT NOT NULL REFERENCES machines(id), commit_sha TEXT NOT NULL,
                   date TEXT NOT NULL, kind TEXT NOT NULL, host TEXT, file TEXT,
                   added TEXT NOT NULL);
CREATE TABLE points (run INTEGER NOT NULL REFERENCES runs(id), backend TEXT NOT NULL,
                     op TEXT NOT NULL, np INTEGER NOT NULL, bytes INTEGER NOT NULL,
                     pair TEXT NOT NULL, unit TEXT NOT NULL, median REAL NOT NULL,
                     reps TEXT NOT NULL, cpu_stall_us REAL, contended INTEGER,
                     oversubscribed INTEGER, wrong INTEGER, cpu_steal_us REAL,
                     placement_before_us REAL, placement_after_us REAL,
                     PRIMARY KEY (run, backend, op, np, bytes, pair));
"""


class StoreError(Exception):
    """A database that cannot be used; str() is the one line to print."""


def open_db(path, create):
    """A connection (autocommit; callers open their own transactions). create: a missing file
    becomes a new database (its schema is written by the first add); else it must exist."""
    shown = cr.show_path(path)
    exists = os.path.lexists(path)
    if exists and not os.path.isfile(path):
        raise StoreError(f"{shown}: not a regular file")
    if not exists and not create:
        raise StoreError(f"{shown}: no such database (track.py add creates it)")
    if not exists and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise StoreError(f"{shown}: its directory does not exist")
    try:
        if exists:
            uri = pathlib.Path(path).resolve().as_uri() + ("" if create else "?mode=ro")
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        else:
            conn = sqlite3.connect(path, isolation_level=None)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names:
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() \
                if "meta" in names else None
            if row is None or row[0] not in (SCHEMA,) + OLD_SCHEMAS:
                raise StoreError(f"{shown}: an SQLite database, but not track.py's "
                                 f"({'schema ' + row[0] if row else 'no schema mark'})")
    except sqlite3.Error as e:
        raise StoreError(f"{shown}: not a track.py database ({e})")
    return conn


def _ensure_schema(conn):
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone() is None:
        for statement in _TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA,))
        return None
    old = schema_of(conn)
    if old == SCHEMA:
        return None
    if not _has_column(conn, "cpu_steal_us"):  # schema 1: steal came with schema 2
        conn.execute("ALTER TABLE points ADD COLUMN cpu_steal_us REAL")
    if not _has_column(conn, "placement_before_us"):  # schemas 1, 2: the probe came with 3
        conn.execute("ALTER TABLE points ADD COLUMN placement_before_us REAL")
        conn.execute("ALTER TABLE points ADD COLUMN placement_after_us REAL")
    conn.execute("UPDATE meta SET value=? WHERE key='schema'", (SCHEMA,))
    return old


def schema_of(conn):
    """The database's schema mark, or None for a new (empty) database."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone() is None:
        return None
    row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    return row[0] if row else None


def _has_column(conn, name):
    return any(r[1] == name for r in conn.execute("PRAGMA table_info(points)"))


def _has_steal(conn):
    return _has_column(conn, "cpu_steal_us")


def add_runs(conn, runs, now, upgraded=None):
    """Stores runs (track_ingest dicts, with "machine" and "file") in one transaction. Returns,
    per run, (run id, True if new / False if already stored). upgraded: a list that gets the old
    schema's name when this add upgraded the database."""
    outcome = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        old = _ensure_schema(conn)
        if old and upgraded is not None:
            upgraded.append(old)
        for run in runs:
            old = conn.execute("SELECT id FROM runs WHERE hash=?", (run["hash"],)).fetchone()
            if old:
                outcome.append((old[0], False))
                continue
            mid = run["machine"]
            conn.execute("INSERT OR IGNORE INTO machines VALUES (?, ?)",
                         (mid, json.dumps(run["fingerprint"], sort_keys=True)))
            cur = conn.execute(
                "INSERT INTO runs (hash, machine, commit_sha, date, kind, host, file, added) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (run["hash"], mid, run["commit"], run["date"], run["kind"], run.get("host"),
                 run.get("file"), now))
            conn.executemany(
                "INSERT OR REPLACE INTO points VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(cur.lastrowid, p["backend"], p["op"], p["np"], p["bytes"], p["pair"],
                  p["unit"], p["median"], json.dumps(p["reps"]), p["cpu_stall_us"],
                  _flag(p["contended"]), _flag(p["oversubscribed"]), p["wrong"],
                  p["cpu_steal_us"], p.get("placement_before_us"), p.get("placement_after_us"))
                 for p in run["points"]])
            outcome.append((cur.lastrowid, True))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcome


def _flag(value):
    return None if value is None else int(bool(value))


def machines(conn):
    """[(id, fingerprint dict, run count, newest date)], the machine of the newest run first."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name='runs'").fetchone() is None:
        return []
    rows = conn.execute(
        "SELECT m.id, m.fingerprint, COUNT(r.id), MAX(r.date), MAX(r.id) FROM machines m "
        "JOIN runs r ON r.machine = m.id GROUP BY m.id ORDER BY MAX(r.date) DESC, MAX(r.id) DESC"
    ).fetchall()
    return [(r[0], json.loads(r[1]), r[2], r[3]) for r in rows]


def runs_of(conn, machine):
    """The machine's runs oldest first: [{"id", "commit", "date", "kind", "file"}]."""
    rows = conn.execute("SELECT id, commit_sha, date, kind, file FROM runs WHERE machine=? "
                        "ORDER BY date, id", (machine,)).fetchall()
    return [{"id": r[0], "commit": r[1], "date": r[2], "kind": r[3], "file": r[4]} for r in rows]


def points_of(conn, machine):
    """{(backend, op, np, bytes, pair): [(run id, median, reps, contended, cpu_stall_us,
    oversubscribed, wrong, cpu_steal_us, probe)]} for the machine's runs, each list oldest
    first; probe: (before us, after us) of the placement probe, or None."""
    series = {}
    steal = "p.cpu_steal_us" if _has_steal(conn) else "NULL"
    probe = ("p.placement_before_us, p.placement_after_us"
             if _has_column(conn, "placement_before_us") else "NULL, NULL")
    for r in conn.execute(
            "SELECT p.backend, p.op, p.np, p.bytes, p.pair, p.run, p.median, p.reps, "
            f"p.contended, p.cpu_stall_us, p.oversubscribed, p.wrong, {steal}, {probe} "
            "FROM points p JOIN runs r ON r.id = p.run WHERE r.machine=? ORDER BY r.date, r.id",
            (machine,)):
        series.setdefault(tuple(r[:5]), []).append(
            (r[5], r[6], json.loads(r[7]), bool(r[8]), r[9], bool(r[10]), r[11], r[12],
             None if r[13] is None or r[14] is None else (r[13], r[14])))
    return series
