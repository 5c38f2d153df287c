/**
 * API contracts shared with the web app. The server validates and documents
 * every route with these TypeBox schemas; the web app imports their static
 * types (`import type`) so request and response shapes are never hand-copied.
 */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  {
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const LoginRequest = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginRequest = Static<typeof LoginRequest>;

export const CurrentUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
  is_research: Type.Boolean(),
  asset_id: Type.Union([Type.String(), Type.Null()]),
  tenant_id: Type.String(),
  /** Derived: admins of the default tenant may create and edit tenants. */
  can_manage_tenants: Type.Boolean(),
});
export type CurrentUser = Static<typeof CurrentUser>;

export const LoginResponse = Type.Intersect([
  Type.Object({ token: Type.String(), expires_at: Type.String() }),
  CurrentUser,
]);
export type LoginResponse = Static<typeof LoginResponse>;

/** SPEC §3 "Client/tenant info", plus the name the header shows. */
export const ClientInfo = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
  exists: Type.Boolean(),
  code: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  is_default: Type.Boolean(),
  payment_access_link: Type.Union([Type.String(), Type.Null()]),
  payment_access_message: Type.Union([Type.String(), Type.Null()]),
});
export type ClientInfo = Static<typeof ClientInfo>;

/** Access levels, lowest first (SPEC §4, §6). */
export const ACCESS_LEVELS = ['public', 'paywall', 'research', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The answer to a spreadsheet upload: what was created, updated and refused, row by row. */
export const ImportReport = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  failed: Type.Integer(),
  /** True when nothing was written because some rows failed (all-or-nothing mode). */
  rolled_back: Type.Boolean(),
  errors: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'Spreadsheet row number (the header is row 1)' }),
      field: Type.Union([Type.String(), Type.Null()]),
      message: Type.String(),
    }),
  ),
  unmatched_columns: Type.Array(Type.String()),
});
export type ImportReport = Static<typeof ImportReport>;
