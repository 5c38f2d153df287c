-- The planner's default sample misjudges how many rows a common search word
-- matches (40 estimated for 7,000 real ones), and then reads every match
-- instead of walking the list order. A larger sample fixes the estimate.
ALTER TABLE organizations ALTER COLUMN search_document SET STATISTICS 1000;
ALTER TABLE people ALTER COLUMN search_document SET STATISTICS 1000;
ANALYZE organizations;
ANALYZE people;
