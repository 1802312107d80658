-- "All unread" (the web reader's view across channels) newest first, stopping after a page (issue 14):
-- the shown, unread channel rows by timeline order across channels. It walked every entry newest first
-- and looked each one up, so that with nearly everything read a page read the whole database.
CREATE INDEX channel_entries_unread_all ON channel_entries (sort_at, entry_id)
WHERE is_read = 0 AND is_removed = 0 AND is_hidden = 0;
