-- A person's met_event_date becomes an incomplete date like birth_date (the same year / month /
-- day boxes in forms): "met in May 2024" no longer needs a made-up day. Existing dates are
-- complete, so every flag starts false.
ALTER TABLE people
  ADD COLUMN met_event_date_incomplete_day boolean NOT NULL DEFAULT false,
  ADD COLUMN met_event_date_incomplete_month boolean NOT NULL DEFAULT false,
  ADD COLUMN met_event_date_incomplete_year boolean NOT NULL DEFAULT false;
