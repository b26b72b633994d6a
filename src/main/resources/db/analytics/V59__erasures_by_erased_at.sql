-- Replicas read the erasures stamped since their last look (analytics.RecordWriter), to take the events of erased
-- readers out of their queues: by time, across organizations.
CREATE INDEX erasures_by_erased_at ON erasures (erased_at);
