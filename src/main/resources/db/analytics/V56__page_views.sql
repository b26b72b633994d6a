-- Page views (analytics.Analytics views/visitors): a page served by POST /v1/page or as /sites/{domain}/<path>.md.
-- visitor: a hash of the caller's address, never the address; traffic: human (a web page's Origin) or ai (none).
CREATE TABLE page_views (
    id ${identity},
    organization_id VARCHAR(200) NOT NULL,
    domain_id VARCHAR(200) NOT NULL,
    path VARCHAR(500) NOT NULL,
    visitor VARCHAR(64) NOT NULL,
    traffic VARCHAR(10) NOT NULL,
    viewed_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX page_views_by_time ON page_views (organization_id, domain_id, viewed_at);
CREATE INDEX page_views_by_visitor ON page_views (organization_id, domain_id, visitor, viewed_at);
-- A search's caller (the same hash) and the paths it returned, each between newlines; a view of one of them by the
-- same visitor before click_until is a click on it (Analytics.searches' ctr). Rows from before have none.
ALTER TABLE searches ADD COLUMN visitor VARCHAR(64);
ALTER TABLE searches ADD COLUMN results VARCHAR(4000);
ALTER TABLE searches ADD COLUMN click_until TIMESTAMP WITH TIME ZONE;
