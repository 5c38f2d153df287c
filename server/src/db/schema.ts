/**
 * Drizzle table definitions mirroring the SQL migrations (the migrations are
 * the source of truth; these give typed queries in the data layer).
 */
import { boolean, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  is_default: boolean('is_default').notNull().default(false),
  payment_access_link: text('payment_access_link'),
  payment_access_message: text('payment_access_message'),
  open_data_link: text('open_data_link'),
  header_show_tenant_name: boolean('header_show_tenant_name').notNull().default(true),
  header_show_access_level: boolean('header_show_access_level').notNull().default(true),
  footer_text: text('footer_text'),
  footer_show_open_data_link: boolean('footer_show_open_data_link').notNull().default(true),
  footer_show_setup_invite: boolean('footer_show_setup_invite').notNull().default(true),
  suggestion_min_confidence: real('suggestion_min_confidence').notNull().default(0.6),
  ...timestamps,
});

export const users = pgTable(
  'users',
  {
    tenant_id: uuid('tenant_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    email: text('email').notNull(),
    alias: text('alias'),
    password_hash: text('password_hash').notNull(),
    is_admin: boolean('is_admin').notNull().default(false),
    is_research: boolean('is_research').notNull().default(false),
    asset_id: uuid('asset_id'),
    disabled: boolean('disabled').notNull().default(false),
    last_login_at: timestamp('last_login_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.tenant_id, t.id] })],
);

export const sessions = pgTable(
  'sessions',
  {
    tenant_id: uuid('tenant_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    user_id: uuid('user_id').notNull(),
    token_hash: text('token_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    user_agent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [primaryKey({ columns: [t.tenant_id, t.id] })],
);

export const schema = { tenants, users, sessions };
