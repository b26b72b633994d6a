-- The page the search came closest to for a turn (its top hit's URL), null when the search found none: an
-- unanswered question's closest page is where the missing paragraph goes (analytics.Topics' gaps).
ALTER TABLE turns ADD COLUMN closest_page VARCHAR(2000);
