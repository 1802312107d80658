-- Polling rounds (issue 22: three `poll --once` started together polled some feeds two and three times).
-- The runs that overlap share one round of their kind ('due', 'force'); a feed is claimed once per round:
-- claim_round names the round that last claimed it, whatever happens to the lease afterwards.
CREATE TABLE poll_rounds (
  kind TEXT PRIMARY KEY,
  round INTEGER NOT NULL,
  started_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  closed BOOLEAN NOT NULL DEFAULT FALSE
);
ALTER TABLE feeds ADD COLUMN claim_round TEXT;
