-- Writes that can be retried (analytics.RecordWriter): each row carries the id the writer gave it when it was
-- queued, unique, and is inserted only if absent, so a batch tried again after a failure the database may have
-- committed all the same (a full disk, a broken connection) is stored once. Rows from before have none.
ALTER TABLE turns ADD COLUMN record_id VARCHAR(40);
ALTER TABLE feedback ADD COLUMN record_id VARCHAR(40);
ALTER TABLE searches ADD COLUMN record_id VARCHAR(40);
ALTER TABLE page_views ADD COLUMN record_id VARCHAR(40);
CREATE UNIQUE INDEX turns_by_record ON turns (record_id);
CREATE UNIQUE INDEX feedback_by_record ON feedback (record_id);
CREATE UNIQUE INDEX searches_by_record ON searches (record_id);
CREATE UNIQUE INDEX page_views_by_record ON page_views (record_id);
-- Erasures (tombstones): a reader erased, and when. Every instance's writer inserts a row of that reader only if
-- it was made after the erasure (in the insert itself), so a row another instance still had queued never comes
-- back. Kept assistant.records.erasure-hold-hours; the writer writes no row older than that.
CREATE TABLE erasures (
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    fp VARCHAR(200) NOT NULL,
    erased_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (organization_id, domain_id, fp)
);
CREATE INDEX erasures_by_time ON erasures (organization_id, erased_at);
