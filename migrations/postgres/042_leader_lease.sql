-- Leadership (docs/leadership.md): the one row of `leader_lease` names the active `proctor run`, its
-- epoch (the fencing token every write of the active checks) and when its lease runs out, on
-- PostgreSQL's clock; a standby leaves its heartbeat in `leader_standby`. PostgreSQL only: SQLite's
-- 042 is empty (migrations/README.md). Not part of the record: `proctor db copy` leaves both tables out.
CREATE TABLE leader_lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  epoch bigint NOT NULL,
  acquired_at timestamptz NOT NULL,
  renewed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE leader_standby (
  name text NOT NULL,
  holder text NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (name, holder)
);
