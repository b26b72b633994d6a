-- The store of record (analytics package). One SQL text for SQLite (embedded) and PostgreSQL: no dialect's own
-- types; the identity placeholder is each one's auto-numbered key (Records). SQLite keeps a time as
-- fixed-width UTC text.
-- Every row names its organization and domain, and the reader (fp) whose erasure removes it.

-- One row per user turn: the question, the answer the reader got, and how it went.
CREATE TABLE turns (
    id ${identity},
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    thread_id VARCHAR(200) NOT NULL,
    message_id VARCHAR(200) NOT NULL,
    fp VARCHAR(200),
    asked_at TIMESTAMP WITH TIME ZONE NOT NULL,
    answered_at TIMESTAMP WITH TIME ZONE NOT NULL,
    question VARCHAR NOT NULL,
    answer VARCHAR NOT NULL,
    response_type VARCHAR(40) NOT NULL,
    sources VARCHAR NOT NULL,
    resolution_status VARCHAR(20) NOT NULL,
    caller_type VARCHAR(10) NOT NULL,
    query_category VARCHAR(500),
    page_url VARCHAR(2000)
);
CREATE INDEX turns_by_time ON turns (organization_id, domain_id, asked_at);
CREATE INDEX turns_by_thread ON turns (thread_id);
CREATE INDEX turns_by_reader ON turns (domain_id, fp);

-- Ratings and feedback: a page's rating (contextual), a code snippet's (code_snippet), an answer's (assistant).
CREATE TABLE feedback (
    id ${identity},
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    fp VARCHAR(200),
    source VARCHAR(20) NOT NULL,
    status VARCHAR(20) NOT NULL,
    path VARCHAR(2000),
    helpful BOOLEAN,
    contact VARCHAR(320),
    comment VARCHAR,
    code VARCHAR,
    filename VARCHAR(500),
    lang VARCHAR(100),
    thread_id VARCHAR(200),
    message_id VARCHAR(200),
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX feedback_by_time ON feedback (organization_id, domain_id, created_at);
CREATE INDEX feedback_by_reader ON feedback (domain_id, fp);

-- One row per search made (POST /v1/search/{domain}, which names no reader).
CREATE TABLE searches (
    id ${identity},
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    query VARCHAR(2000) NOT NULL,
    searched_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX searches_by_time ON searches (organization_id, domain_id, searched_at);
