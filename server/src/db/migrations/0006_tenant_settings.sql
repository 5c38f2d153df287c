-- Tenant settings (GET/PATCH /api/v1/settings/): what the header and footer
-- show and where the footer's open-data link points. Defaults reproduce the
-- layout as it was before these settings existed.

ALTER TABLE tenants
  ADD COLUMN open_data_link text,
  ADD COLUMN header_show_tenant_name boolean NOT NULL DEFAULT true,
  ADD COLUMN header_show_access_level boolean NOT NULL DEFAULT true,
  ADD COLUMN footer_text text,
  ADD COLUMN footer_show_open_data_link boolean NOT NULL DEFAULT true,
  ADD COLUMN footer_show_setup_invite boolean NOT NULL DEFAULT true,
  ADD CONSTRAINT tenants_footer_text_length CHECK (char_length(footer_text) <= 300),
  ADD CONSTRAINT tenants_open_data_link_length CHECK (char_length(open_data_link) <= 2048);
