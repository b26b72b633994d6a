-- Topics (analytics.Topics): each domain's questions grouped by meaning, in the background. A group is a category
-- (category_id null) or a topic of one; it keeps the sum of its questions' sentence vectors (float32, little-endian,
-- base64) and their count, so its centroid moves as questions join, and a new question joins the nearest: a topic
-- keeps its id across refreshes. Ids are numbered per domain; two writers racing for one fail on the key.
CREATE TABLE topic_groups (
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    id INTEGER NOT NULL,
    category_id INTEGER,
    label VARCHAR(500) NOT NULL,
    vector_sum VARCHAR NOT NULL,
    questions BIGINT NOT NULL,
    PRIMARY KEY (organization_id, domain_id, id)
);
-- A turn's topic, null until grouped.
ALTER TABLE turns ADD COLUMN topic_id INTEGER;
CREATE INDEX turns_by_topic ON turns (topic_id, id);
-- An answer's rating names its message: the ratings of a topic join on it.
CREATE INDEX turns_by_message ON turns (domain_id, message_id);
