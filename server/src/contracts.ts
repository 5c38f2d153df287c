/**
 * API contracts shared with the web app. The server validates and documents
 * every route with these TypeBox schemas; the web app imports their static
 * types (`import type`) so request and response shapes are never hand-copied.
 */
import { Type, type Static, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    /** Per list field, the items refused by position (0-based), so a client marks them without reading `errors`' text. */
    item_errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), message: Type.String() }))),
    ),
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

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** SPEC §3 "Client/tenant info", plus what the header and footer show (tenant settings). */
export const ClientInfo = Type.Object({
  id: Nullable(Type.String()),
  exists: Type.Boolean(),
  code: Nullable(Type.String()),
  name: Nullable(Type.String()),
  is_default: Type.Boolean(),
  payment_access_link: Nullable(Type.String()),
  payment_access_message: Nullable(Type.String()),
  /** The footer's open-data link; null for the app's default. */
  open_data_link: Nullable(Type.String()),
  header_show_tenant_name: Type.Boolean(),
  header_show_access_level: Type.Boolean(),
  /** An extra line in the footer; null for none. */
  footer_text: Nullable(Type.String()),
  footer_show_open_data_link: Type.Boolean(),
  footer_show_setup_invite: Type.Boolean(),
});
export type ClientInfo = Static<typeof ClientInfo>;

/** A user of the tenant as admins manage it (GET users/); the password hash never leaves the server. */
export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    alias: Nullable(Type.String()),
    is_admin: Type.Boolean(),
    is_research: Type.Boolean(),
    /** Disabled users cannot sign in and their sessions are revoked; users are never deleted. */
    disabled: Type.Boolean(),
    last_login_at: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type User = Static<typeof User>;

/** POST users/. Email unique per tenant (ignoring case); password at least 10 characters. */
export const UserInput = Type.Object(
  {
    // Required, but checked by the service with every other field, so one answer names all that is missing.
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    alias: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    is_admin: Type.Optional(Type.Boolean()),
    is_research: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UserInput = Static<typeof UserInput>;

/** PATCH users/{id}/: only the fields sent change. */
export const UserPatch = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    alias: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    is_admin: Type.Optional(Type.Boolean()),
    is_research: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UserPatch = Static<typeof UserPatch>;

/** POST users/{id}/reset-password/: the new password, chosen by the admin. */
export const PasswordReset = Type.Object({ password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });
export type PasswordReset = Static<typeof PasswordReset>;

/** A tenant ("client" in SPEC §7) as tenant managers see it. */
export const Client = Type.Object(
  {
    id: Type.String(),
    code: Type.String(),
    name: Type.String(),
    is_default: Type.Boolean(),
    payment_access_link: Nullable(Type.String()),
    payment_access_message: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type Client = Static<typeof Client>;

/** POST clients/: the code is the tenant's subdomain; admin_email and admin_password create its first admin. */
export const ClientInput = Type.Object(
  {
    // Required, but checked by the service with every other field, so one answer names all that is missing.
    code: Type.Optional(Type.String({ maxLength: 253 })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    payment_access_link: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    payment_access_message: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    admin_email: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    admin_password: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  },
  { additionalProperties: false },
);
export type ClientInput = Static<typeof ClientInput>;

/** PATCH clients/{id}/: the code cannot change (it is the tenant's address). */
export const ClientPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    payment_access_link: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    payment_access_message: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  },
  { additionalProperties: false },
);
export type ClientPatch = Static<typeof ClientPatch>;

/** DELETE clients/{id}/?confirm={code}: what was removed, rows per table. */
export const ClientDeletion = Type.Object({
  id: Type.String(),
  code: Type.String(),
  deleted: Type.Record(Type.String(), Type.Integer()),
  total: Type.Integer(),
});
export type ClientDeletion = Static<typeof ClientDeletion>;

/** GET/PATCH settings/: the current tenant's own settings (admins). */
export const Settings = Type.Object(
  {
    name: Type.String(),
    payment_access_link: Nullable(Type.String()),
    payment_access_message: Nullable(Type.String()),
    open_data_link: Nullable(Type.String()),
    header_show_tenant_name: Type.Boolean(),
    header_show_access_level: Type.Boolean(),
    footer_text: Nullable(Type.String()),
    footer_show_open_data_link: Type.Boolean(),
    footer_show_setup_invite: Type.Boolean(),
    /** Processing suggests no person, organization or ledger entry it is less sure of (0 to 1; docs/processing.md "Confidence"). */
    suggestion_min_confidence: Type.Number(),
  },
  { additionalProperties: false },
);
export type Settings = Static<typeof Settings>;

export const SettingsPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    payment_access_link: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    payment_access_message: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    open_data_link: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    header_show_tenant_name: Type.Optional(Type.Boolean()),
    header_show_access_level: Type.Optional(Type.Boolean()),
    footer_text: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    footer_show_open_data_link: Type.Optional(Type.Boolean()),
    footer_show_setup_invite: Type.Optional(Type.Boolean()),
    suggestion_min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type SettingsPatch = Static<typeof SettingsPatch>;

/** Access levels, lowest first (SPEC §4, §6). */
export const ACCESS_LEVELS = ['public', 'paywall', 'research', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export const AccessLevelSchema = Type.Union([Type.Literal('public'), Type.Literal('paywall'), Type.Literal('research'), Type.Literal('admin')]);

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

/** A refused upload: the usual error, plus the report when every row was checked (code import_failed). */
export const ImportFailedBody = Type.Object({
  detail: Type.String(),
  code: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  report: Type.Optional(ImportReport),
});
export type ImportFailedBody = Static<typeof ImportFailedBody>;

/** A resource a relation field may point at. */
export const RelationTarget = Type.Object({
  kind: Type.String(),
  type: Type.String(),
  label: Type.String(),
  path: Type.String(),
  /** Fields whose values tell same-named records apart in a picker (e.g. a city and an email). */
  detail_fields: Type.Optional(Type.Array(Type.String())),
});
export type RelationTarget = Static<typeof RelationTarget>;

/** A related record as records present it: enough to show and link it. */
export const RelatedRef = Type.Object({ id: Type.String(), display_name: Type.Union([Type.String(), Type.Null()]), kind: Type.String() });
export type RelatedRef = Static<typeof RelatedRef>;

/** The group a field is shown in on forms, in this order: identity, contact, dates, details, visibility and sharing. */
export const FieldSection = Type.Union([
  Type.Literal('identity'), Type.Literal('contact'), Type.Literal('dates'), Type.Literal('details'), Type.Literal('sharing'),
]);
export type FieldSection = Static<typeof FieldSection>;

/**
 * How a list parameter compares a field (docs/engine.md, "Lookups"): `is` is the parameter
 * `<field>`, every other `<field>__<lookup>` — is any of, is none of, greater than (or equal),
 * less than (or equal), has no value (true) or has one (false).
 */
export const LOOKUPS = ['is', 'not', 'gt', 'gte', 'lt', 'lte', 'empty'] as const;
export type Lookup = (typeof LOOKUPS)[number];
export const LookupSchema = Type.Union([
  Type.Literal('is'), Type.Literal('not'), Type.Literal('gt'), Type.Literal('gte'), Type.Literal('lt'), Type.Literal('lte'), Type.Literal('empty'),
]);

/** How one field of a resource is edited and shown (from GET resources/). */
export const FieldMeta = Type.Object({
  name: Type.String(),
  kind: Type.Union([
    Type.Literal('text'), Type.Literal('category'), Type.Literal('choice'), Type.Literal('visibility'),
    Type.Literal('boolean'), Type.Literal('date'), Type.Literal('incomplete_date'), Type.Literal('emails'),
    Type.Literal('phones'), Type.Literal('urls'), Type.Literal('url'), Type.Literal('strings'), Type.Literal('object'),
    Type.Literal('integer'), Type.Literal('decimal'), Type.Literal('relation'), Type.Literal('datetime'),
  ]),
  max_length: Type.Union([Type.Integer(), Type.Null()]),
  multiline: Type.Boolean(),
  choices: Type.Union([Type.Array(Type.String()), Type.Null()]),
  /** Choice → how it reads, when the values are codes. */
  choice_labels: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
  default: Type.Unknown(),
  filterable: Type.Boolean(),
  orderable: Type.Boolean(),
  /** Smallest and largest value of a number field. */
  min: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
  /** Whether a value must be given. */
  required: Type.Boolean(),
  /** Whether the value is set on create and cannot change afterwards. */
  immutable: Type.Boolean(),
  /** Whether the server sets the value (e.g. a slug): shown, not edited; sent values are ignored. */
  read_only: Type.Boolean(),
  /**
   * Whether a change to an existing record may set the field (PATCH): not set by the server
   * (read_only), not fixed once created (immutable), and a value rather than a JSON object.
   * Who may set it is `write_access`; the table's inline editing offers exactly these fields.
   */
  editable: Type.Boolean(),
  /** The audience that may read the field (records omit it for others), and the one that may write it. */
  read_access: AccessLevelSchema,
  write_access: AccessLevelSchema,
  /** For relation fields: what they point at. */
  relation: Type.Union([Type.Object({ many: Type.Boolean(), targets: Type.Array(RelationTarget) }), Type.Null()]),
  /** Where forms group the field. */
  section: FieldSection,
  /** A curators' flag (show_on_dashboard, is_fav): detail pages show it to writers only. */
  internal: Type.Boolean(),
});
export type FieldMeta = Static<typeof FieldMeta>;

/** A resource as the web app's shared table, form and detail page need it. */
export const ResourceMeta = Type.Object({
  kind: Type.String(),
  type: Type.String(),
  label: Type.String(),
  /** Path under /api/v1, e.g. /assets/organizations. */
  path: Type.String(),
  write_access: Type.String(),
  fields: Type.Array(FieldMeta),
  ordering: Type.Array(Type.String()),
  filters: Type.Array(Type.String()),
  /**
   * The fields a list can be grouped by (one value per row: choices, categories, visibility,
   * flags, numbers, relations to one record), every field's: a restricted field's for its
   * read_access and above.
   */
  group_by: Type.Array(Type.String()),
  /** The order of a list request without `ordering` (e.g. -updated_at, name). */
  default_ordering: Type.String(),
  /** Field → the lookups its list parameters take (LOOKUPS), for every field that takes one; a restricted field's for its read_access and above. */
  lookups: Type.Record(Type.String(), Type.Array(LookupSchema)),
  /** Fields of which at least one must be filled in (the record's names). */
  name_fields: Type.Array(Type.String()),
  /** Fields whose values tell same-named records apart (a picker's second line). */
  detail_fields: Type.Array(Type.String()),
  /** Kind of list the records can be items of, or null. */
  list_kind: Type.Union([Type.String(), Type.Null()]),
  /** The audience that may read the records at all. */
  read_access: AccessLevelSchema,
  deletable: Type.Boolean(),
  /** Duplicates can be merged (with a preview and an undo). */
  mergeable: Type.Boolean(),
  /** Shared by every tenant (geos, cities) rather than the tenant's own. */
  shared: Type.Boolean(),
  /**
   * The link filters (docs/engine.md "Link filters"): list parameters `<name>` / `<name>__not`
   * holding ids of records of `targets`, related through other records ("people linked to X").
   */
  links: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), targets: Type.Array(RelationTarget) })),
  /** What POST {path}/bulk/ offers for this resource (see BulkRequest), and how many rows one request may touch. */
  bulk_actions: Type.Array(Type.String()),
  bulk_max_rows: Type.Integer(),
  /**
   * A reviewed resource's suggestions (docs/review.md), where they differ from its records: their
   * path, their fields (the records' and what suggestions add: `confidence`), what orders them
   * and their order when the list asks for none. Null for a resource that is not reviewed.
   */
  suggestions: Type.Union([
    Type.Object({ path: Type.String(), fields: Type.Array(FieldMeta), ordering: Type.Array(Type.String()), default_ordering: Type.String() }),
    Type.Null(),
  ]),
});
export type ResourceMeta = Static<typeof ResourceMeta>;

/**
 * What a saved view holds (server/src/modules/views, docs/web.md "Saved views"): a table's
 * settings, checked against its resource's declaration when saved. A setting left null or
 * empty is the table's own.
 */
export const SavedViewState = Type.Object({
  search: Type.String(),
  /** The list's ordering ("-founding_date,name_inc"); '' for its default. */
  ordering: Type.String(),
  /** List parameter (`hq_city`, `founding_date__gte`) → its values. */
  filters: Type.Record(Type.String(), Type.Array(Type.String())),
  columns: Type.Union([Type.Array(Type.String()), Type.Null()]),
  density: Type.Union([Type.Literal('comfortable'), Type.Literal('compact'), Type.Null()]),
  /** A field of the resource's `group_by`, or null. */
  group_by: Type.Union([Type.String(), Type.Null()]),
  page_size: Type.Union([Type.Literal(25), Type.Literal(50), Type.Literal(100), Type.Null()]),
});
export type SavedViewState = Static<typeof SavedViewState>;

/** A saved view as GET views/ presents it. */
export interface SavedView {
  id: string;
  name: string;
  /** The resource kind whose list it shows. */
  resource: string;
  state: SavedViewState;
  /** Shared with the team (research users and admins of the tenant); else its owner's alone. */
  shared: boolean;
  owner_id: string;
  /** Whether it is the reader's default of its table. */
  is_default: boolean;
}

/** Counts of one kind of entity by visibility; hidden_count for admins only. */
export const KindCount = Type.Object({
  public_count: Type.Integer(),
  paywall_count: Type.Integer(),
  hidden_count: Type.Optional(Type.Integer({ description: 'Admins only' })),
});
export type KindCount = Static<typeof KindCount>;

/** GET tools/entities-count/ and tools/free-ahead-entities-count/: counts per kind (SPEC §3). */
export const EntityCounts = Type.Record(Type.String(), KindCount);
export type EntityCounts = Static<typeof EntityCounts>;

/** The kinds of entity processing finds in a raw data item (docs/processing.md). */
export const ENTITY_TYPES = ['PER', 'ORG', 'MONEY', 'DATE', 'EMAIL', 'PHONE', 'URL', 'GEO', 'KEYWORD'] as const;

/**
 * One entity processing found in a raw data item, as GET raw-data/extract-data/ answers it:
 * its mentions, the first one's sentence, its value (money, date), and the record it names —
 * `linked` when the tenant had it, else the suggestion made of it.
 */
export const ExtractedEntity = Type.Object({
  raw_data_id: Type.String(),
  item: Type.String(),
  type: Type.Union(ENTITY_TYPES.map((type) => Type.Literal(type))),
  text: Type.String(),
  normalized: Type.String(),
  mentions: Type.Integer(),
  snippet: Type.String(),
  value: Type.Unknown(),
  record: Type.Union([
    Type.Object({ kind: Type.String(), id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), status: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  linked: Type.Boolean(),
});
export type ExtractedEntity = Static<typeof ExtractedEntity>;

/**
 * One place a suggestion was found (docs/review.md "Provenance"), presented with each suggestion
 * as `provenance`. The offsets locate the mention in the source's whole text (end exclusive), not
 * in `snippet`, which is only the text around it; `snippet_start` says where the snippet starts.
 */
export const SuggestionProvenance = Type.Object({
  id: Type.String(),
  source_kind: Type.String(),
  source_id: Type.Union([Type.String(), Type.Null()]),
  snippet: Type.String(),
  start_offset: Type.Union([Type.Integer(), Type.Null()]),
  end_offset: Type.Union([Type.Integer(), Type.Null()]),
  /** Where `snippet` starts in the source's text: the mention is at start_offset - snippet_start in it (null when the suggester did not say). */
  snippet_start: Type.Union([Type.Integer(), Type.Null()]),
  mention_count: Type.Integer(),
  /** How sure the suggester was of what it found here, 0 to 1 (null when it did not say). */
  confidence: Type.Union([Type.Number(), Type.Null()]),
  created_at: Type.String(),
});
export type SuggestionProvenance = Static<typeof SuggestionProvenance>;

/** One hit of GET search/ (SPEC §3 "Search result"). */
export const SearchResult = Type.Object({
  id: Type.String(),
  type: Type.String({ description: 'Organization, Person, LibraryEntry, LibraryList, OrganizationsList, PeopleList, LedgerList' }),
  display_name: Type.Union([Type.String(), Type.Null()]),
  slug: Type.Union([Type.String(), Type.Null()]),
});
export type SearchResult = Static<typeof SearchResult>;

export const SearchResponse = Type.Object({ results: Type.Array(SearchResult) });
export type SearchResponse = Static<typeof SearchResponse>;

/** One record of any resource: id, display_name, every declared field, timestamps. */
export const ResourceRecord = Type.Intersect([
  Type.Object({ id: Type.String(), display_name: Type.Union([Type.String(), Type.Null()]) }),
  Type.Record(Type.String(), Type.Unknown()),
]);
export type ResourceRecord = Static<typeof ResourceRecord>;

/** GET {path}/: one page of records, for a given record schema. */
export const resourcePage = <T extends TSchema>(record: T) =>
  Type.Object({
    count: Type.Integer(),
    /** A filtered count is exact up to a cap, then estimated. */
    count_is_estimate: Type.Optional(Type.Boolean()),
    /** A search that found little as typed: the results include records with words like those typed (typos forgiven). */
    search_includes_similar: Type.Optional(Type.Boolean()),
    /**
     * With `search_includes_similar`: the words like those typed that the search matched as well,
     * folded as the search folds words (lower case, no accents, transliterations folded), so a
     * reader's screen can mark them where a record has them.
     */
    similar_words: Type.Optional(Type.Array(Type.String())),
    next: Type.Union([Type.String(), Type.Null()]),
    previous: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(record),
  });
export const ResourcePage = resourcePage(ResourceRecord);
export type ResourcePage = Static<typeof ResourcePage>;

/**
 * One filter of GET {path}/available-filters/, with the values found among visible rows:
 * the declared filters (choice, boolean, relation), then the fields that only compare
 * (number, date) or can only be asked to be empty (array), whose values are [].
 */
export const AvailableFilter = Type.Object({
  name: Type.String(),
  type: Type.Union([
    Type.Literal('choice'), Type.Literal('boolean'), Type.Literal('relation'), Type.Literal('number'), Type.Literal('date'), Type.Literal('array'),
  ]),
  /** The lookups the field takes, in LOOKUPS order. */
  lookups: Type.Array(LookupSchema),
  /** label: the related record's name, for relation filters (whose values are ids). */
  values: Type.Array(Type.Object({ value: Type.Unknown(), count: Type.Integer(), label: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
});
export type AvailableFilter = Static<typeof AvailableFilter>;
export const AvailableFilters = Type.Object({ filters: Type.Array(AvailableFilter) });
export type AvailableFilters = Static<typeof AvailableFilters>;

/** The most rows one list call answers (`limit`): a list asked for more gives this many. */
export const MAX_LIMIT = 100;

// The Operator (docs/operator.md, modules/operator)

/** The question of POST ai-assistant/queries/nlp-to-query/ takes 1 to this many characters. */
export const MAX_QUESTION_LENGTH = 500;

/** The kinds of record the Operator answers about (resource kinds). */
export const OPERATOR_ENTITIES = ['organizations', 'people', 'ledger_entries', 'library', 'lists'] as const;
export type OperatorEntity = (typeof OPERATOR_ENTITIES)[number];

/**
 * What a condition does with its field: a list lookup (LOOKUPS), with `empty` read both ways —
 * `empty` is the parameter `f__empty=true`, `not_empty` (has a value) `f__empty=false`.
 */
export const CONDITION_OPS = ['is', 'not', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** One condition of a structured query, as the Operator answers it. */
export const QueryCondition = Type.Object({
  field: Type.String(),
  op: Type.Enum(CONDITION_OPS),
  /** What goes into the list parameter: ids for relations, stored values otherwise; [] for empty / not_empty. */
  values: Type.Array(Type.String()),
  /** How the values read (names of related records), one per value. */
  labels: Type.Array(Type.String()),
  /** The list parameter the condition becomes (`f`, `f__not`, `f__gt` … `f__empty`). */
  param: Type.String(),
  /** The part of the question the condition came from ('' when built by hand). */
  text: Type.String(),
});
export type QueryCondition = Static<typeof QueryCondition>;

/** One term of a structured query's ordering. */
export const QueryOrdering = Type.Object({ field: Type.String(), descending: Type.Boolean() });
export type QueryOrdering = Static<typeof QueryOrdering>;

/** The Operator's structured query: what its answers hold. */
export const StructuredQuery = Type.Object({
  entity: Type.Enum(OPERATOR_ENTITIES),
  /** Full-text words, or null. */
  search: Type.Union([Type.String(), Type.Null()]),
  conditions: Type.Array(QueryCondition),
  ordering: Type.Array(QueryOrdering),
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT }),
});
export type StructuredQuery = Static<typeof StructuredQuery>;

/**
 * A condition as a client sends it to validate: `param` is the server's to write (one sent is
 * not read) and `text` comes from a question, so a condition built by hand has neither yet.
 */
export const QueryConditionInput = Type.Evaluate(
  Type.Intersect([Type.Omit(QueryCondition, ['param', 'text']), Type.Partial(Type.Pick(QueryCondition, ['param', 'text']))]),
);
export type QueryConditionInput = Static<typeof QueryConditionInput>;

/** A structured query as a client sends it to validate: an answer's query, edited by hand. */
export const StructuredQueryInput = Type.Object({ ...StructuredQuery.properties, conditions: Type.Array(QueryConditionInput) });
export type StructuredQueryInput = Static<typeof StructuredQueryInput>;

/** POST ai-assistant/queries/nlp-to-query/ */
export const OperatorQuestion = Type.Object(
  {
    query: Type.String({ description: `The question, 1 to ${MAX_QUESTION_LENGTH} characters` }),
    accept_partial: Type.Optional(Type.Boolean({
      description: 'When part of the question is not understood, answer the list request of what was understood anyway (false: the answer says what was not understood and has no list request)',
    })),
  },
  { additionalProperties: false },
);
export type OperatorQuestion = Static<typeof OperatorQuestion>;

/** POST ai-assistant/queries/validate/ */
export const ValidateQueryRequest = Type.Object({ query: StructuredQueryInput }, { additionalProperties: false });
export type ValidateQueryRequest = Static<typeof ValidateQueryRequest>;

/** The answer of nlp-to-query and validate. */
export const OperatorAnswer = Type.Object({
  query: StructuredQuery,
  /**
   * The list call that runs the query: its API path and exactly its query parameters (values
   * joined with commas). Null while the answer is partial and was not accepted: a query missing
   * part of the question would answer more than was asked.
   */
  list: Type.Union([Type.Object({ path: Type.String(), params: Type.Record(Type.String(), Type.String()) }), Type.Null()]),
  /** Whether part of the question was not understood (`not_understood`): the query holds only the rest. */
  partial: Type.Boolean(),
  /** Words read as another word: a misspelling, or a value matched to the tenant's own spelling ("Londn" → "London"). */
  corrections: Type.Array(Type.Object({ written: Type.String(), read: Type.String() })),
  /** The query said back, followed by notes on what could not be used. */
  explanation: Type.String(),
  /** Words and phrases of the question that were not used. */
  not_understood: Type.Array(Type.String()),
  /** Who read the question: the built-in parser, the chat endpoint, or nobody (validate). */
  source: Type.Union([Type.Literal('parser'), Type.Literal('llm'), Type.Literal('manual')]),
});
export type OperatorAnswer = Static<typeof OperatorAnswer>;

/** GET assets/organizations/suggested_fields_from_url/?url= */
export const OrganizationSuggestion = Type.Object({
  name_inc: Type.Union([Type.String(), Type.Null()]),
  notes: Type.Union([Type.String(), Type.Null()]),
  emails: Type.Array(Type.String()),
  phones: Type.Array(Type.String()),
  associated_urls: Type.Array(Type.String()),
  source_url: Type.String(),
});
export type OrganizationSuggestion = Static<typeof OrganizationSuggestion>;

/** One entry of a record's history (GET {resource}/{id}/history/, admins). */
export const AuditEntry = Type.Object({
  id: Type.String(),
  action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete'), Type.Literal('merge'), Type.Literal('undo_merge')]),
  at: Type.String(),
  /** Who wrote: a person (user_id, user_email), or the system (a job or script; user_id null). */
  actor: Type.Union([Type.Literal('user'), Type.Literal('system')]),
  user_id: Type.Union([Type.String(), Type.Null()]),
  user_email: Type.Union([Type.String(), Type.Null()]),
  /** A system write: the user it was done for, when one caused it. */
  on_behalf_of: Type.Union([Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  display_name: Type.Union([Type.String(), Type.Null()]),
  /** Field → its value before and after, as the API presents values. */
  changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
  /** For a merge: the record merged into this one, and whether the merge was undone. */
  merged_id: Type.Union([Type.String(), Type.Null()]),
  undone_at: Type.Union([Type.String(), Type.Null()]),
});
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditHistory = Type.Object({ results: Type.Array(AuditEntry) });
export type AuditHistory = Static<typeof AuditHistory>;

/** One value of a related record's second line: a field's text, and the record it names for a relation. */
export const RelatedSummaryPart = Type.Object({
  field: Type.String(),
  /** The field's kind (FieldMeta kind), so dates can be shown in words. */
  kind: Type.String(),
  text: Type.String(),
  ref: Type.Union([RelatedRef, Type.Null()]),
});
export type RelatedSummaryPart = Static<typeof RelatedSummaryPart>;

/** A record that points at the one asked about (or a list holding it): enough to show and link it. */
export const RelatedItem = Type.Object({
  id: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  /** The record's resource kind (e.g. library, lists). */
  kind: Type.String(),
  /** Its type: the resource's, or for lists the list type (OrganizationsList, …). */
  type: Type.String(),
  /** Lists: the slug of their page. */
  slug: Type.Union([Type.String(), Type.Null()]),
  visibility: Type.Union([Type.String(), Type.Null()]),
  summary: Type.Array(RelatedSummaryPart),
});
export type RelatedItem = Static<typeof RelatedItem>;

/** The records of one resource pointing at a record through one relation field (or the lists holding it), one page. */
export const RelatedGroup = Type.Object({
  /** `{resource kind}.{field}`, or `lists.items` for list memberships: the `group` parameter. */
  key: Type.String(),
  label: Type.String(),
  resource: Type.String(),
  field: Type.Union([Type.String(), Type.Null()]),
  count: Type.Integer(),
  /** A total beyond the exact cap is estimated. */
  count_is_estimate: Type.Optional(Type.Boolean()),
  limit: Type.Integer(),
  offset: Type.Integer(),
  results: Type.Array(RelatedItem),
});
export type RelatedGroup = Static<typeof RelatedGroup>;

/** GET {resource}/{id}/related/: every group with something in it (or the one `group` asks for). */
export const RelatedGroups = Type.Object({ groups: Type.Array(RelatedGroup) });
export type RelatedGroups = Static<typeof RelatedGroups>;

/** A record of a relationship graph (GET {resource}/{id}/graph/). */
export const RelationGraphNode = Type.Object({
  id: Type.String(),
  /** Its resource kind (organizations, people, ledger_entries, library, …). */
  kind: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  /** Steps from the root (0 for the root). */
  depth: Type.Integer(),
});
export type RelationGraphNode = Static<typeof RelationGraphNode>;

/** A relation between two nodes: `source`'s relation field `field` holds `target`. */
export const RelationGraphEdge = Type.Object({
  source: Type.String(),
  target: Type.String(),
  /** `{resource kind}.{field}` of the source, e.g. library.authors. */
  field: Type.String(),
  /** The field, readable (authors, owner person). */
  label: Type.String(),
});
export type RelationGraphEdge = Static<typeof RelationGraphEdge>;

/** A kind the caller may ask for in `kinds=`, and whether this answer includes it. */
export const RelationGraphKind = Type.Object({
  kind: Type.String(),
  label: Type.String(),
  plural: Type.String(),
  /** Its API path, e.g. /assets/people: where a node's own graph is asked for. */
  path: Type.String(),
  selected: Type.Boolean(),
  /** In a graph unless the caller picks the kinds (the declaration's `graph`): the kinds offered first. */
  usual: Type.Boolean(),
});
export type RelationGraphKind = Static<typeof RelationGraphKind>;

/** GET {resource}/{id}/graph/: the record's neighbours the caller may see, both ways, to depth 1 or 2. */
export const RelationGraph = Type.Object({
  root: Type.Object({ id: Type.String(), kind: Type.String() }),
  depth: Type.Integer(),
  /** The cap on nodes this answer was read with. */
  limit: Type.Integer(),
  /** Some visible records were left out by the cap (never said of records the caller may not see). */
  truncated: Type.Boolean(),
  nodes: Type.Array(RelationGraphNode),
  edges: Type.Array(RelationGraphEdge),
  kinds: Type.Array(RelationGraphKind),
});
export type RelationGraph = Static<typeof RelationGraph>;

/** GET {resource}/{id}/merge-preview/?other={id}: both records field by field, and what would move. */
export const MergePreview = Type.Object({
  survivor: Type.Record(Type.String(), Type.Unknown()),
  other: Type.Record(Type.String(), Type.Unknown()),
  fields: Type.Array(Type.Object({ name: Type.String(), survivor: Type.Unknown(), other: Type.Unknown(), differs: Type.Boolean() })),
  /** References to the other record that move to the survivor, by what holds them. */
  references: Type.Record(Type.String(), Type.Integer()),
});
export type MergePreview = Static<typeof MergePreview>;

/** POST {resource}/{id}/merge/: the other record's id and, per field, whose value to keep. */
export const MergeRequest = Type.Object({
  other: Type.String({ format: 'uuid' }),
  /** 'both' keeps the items of both records, for list fields (emails, keywords, …). */
  choices: Type.Optional(Type.Record(Type.String(), Type.Enum(['survivor', 'other', 'both']))),
});
export type MergeRequest = Static<typeof MergeRequest>;
export const MergeResult = Type.Object({ record: Type.Record(Type.String(), Type.Unknown()), audit_id: Type.String() });
export type MergeResult = Static<typeof MergeResult>;

/** The engine's own bulk actions (resources/bulk.ts): a resource offers those its declaration allows. */
export const ENGINE_BULK_ACTIONS = ['delete', 'set_visibility', 'add_keywords', 'remove_keywords', 'export'] as const;

/**
 * The lists extension's bulk action (modules/lists/lists.extension.ts): `list` names the list
 * the rows are added to. Engine extensions add bulk actions of their own; GET resources/ says
 * which actions a resource offers (bulk_actions).
 */
export const AddToListParameter = Type.Object({ list: Type.String({ format: 'uuid' }) });

/** Every bulk action the API knows: the engine's and the extensions'. */
export type BulkAction = (typeof ENGINE_BULK_ACTIONS)[number] | 'add_to_list';

/**
 * POST {resource}/bulk/: one action on the rows named by `ids`, or on every row matching
 * `all_matching` (the list's query parameters: search and filters, ordering for an export),
 * with the action's parameter. The route's schema adds the parameters of the extensions'
 * actions the resource offers (e.g. `list`).
 */
export const BulkRequest = Type.Object({
  action: Type.String({ description: "One of the resource's bulk_actions (GET resources/)" }),
  ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }))),
  all_matching: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]))),
  /** set_visibility: the new visibility. */
  visibility: Type.Optional(Type.String()),
  /** add_keywords, remove_keywords: keyword ids. */
  keywords: Type.Optional(Type.Array(Type.String({ format: 'uuid' }))),
  /** export: the file type (xlsx by default). */
  format: Type.Optional(Type.Enum(['xlsx', 'csv'])),
});
/** The body as the web app sends it: any action, with its parameter. */
export type BulkRequest = Omit<Static<typeof BulkRequest>, 'action'> & { action: BulkAction } & Partial<Static<typeof AddToListParameter>>;

/** A bulk action done: the rows it was asked for, those it changed, and how to undo it. */
export const BulkResult = Type.Object({
  action: Type.String(),
  /** Rows the action was asked for (after resolving all_matching). */
  matched: Type.Integer(),
  /** Ids of the rows written (rows that already were as asked are left alone). */
  changed: Type.Array(Type.String()),
  /** The operation's id, named by every audit entry it wrote; null when nothing changed. */
  operation_id: Type.Union([Type.String(), Type.Null()]),
  /** POST here (no body) to undo a visibility, keyword or list change; null for deletes and when nothing changed. */
  undo: Type.Union([Type.String(), Type.Null()]),
});
export type BulkResult = Static<typeof BulkResult>;

/** A refused bulk action (code bulk_refused, nothing written): why, row by row. */
export const BulkRefusedBody = Type.Object({
  detail: Type.String(),
  code: Type.String(),
  rows: Type.Array(Type.Object({ id: Type.String(), code: Type.String(), detail: Type.String() })),
});
export type BulkRefusedBody = Static<typeof BulkRefusedBody>;

/** POST {resource}/bulk/{operation}/undo/: the rows put back. */
export const BulkUndoResult = Type.Object({ operation_id: Type.String(), restored: Type.Array(Type.String()) });
export type BulkUndoResult = Static<typeof BulkUndoResult>;

/** Where a background job is: waiting, running, or ended one way or the other. */
export const JobStatus = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]);
export type JobStatus = Static<typeof JobStatus>;

/** A background job as its tenant sees it (GET jobs/{id}/): where it is and how it ended. */
export const Job = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: JobStatus,
    /** Attempts started so far, and how many it gets in all. */
    attempts: Type.Integer(),
    max_attempts: Type.Integer(),
    /** What the job is doing, as its handler last said, and how far along (0–100). */
    stage: Nullable(Type.String()),
    percent: Nullable(Type.Integer()),
    /** The handler's summary once it succeeded. */
    result: Type.Unknown(),
    /** Why the last attempt failed (while a retry waits, or for good once failed). */
    error: Nullable(Type.String()),
    created_at: Type.String(),
    started_at: Nullable(Type.String()),
    finished_at: Nullable(Type.String()),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type Job = Static<typeof Job>;

/** The answer to a request that started a job (202): follow it at GET jobs/{id}/. */
export const JobAccepted = Type.Object({ job_id: Type.String() }, { additionalProperties: false });
export type JobAccepted = Static<typeof JobAccepted>;

/**
 * The answer to an upload too big to import in its request (202): the import job, to follow
 * at GET jobs/{id}/, whose result is the ImportReport once it succeeded.
 */
export const ImportJobAccepted = Type.Object({ job_id: Type.String(), status: JobStatus }, { additionalProperties: false });
export type ImportJobAccepted = Static<typeof ImportJobAccepted>;

/** Live events: every event's name, channel and payload (events/event-map.ts, docs/events.md). */
export type { CloseReason, EventChannel, EventName, EventPayload, LiveEvent, ResetPayload, StreamClosedPayload } from './events/event-map.ts';

/** A user as notes show them (docs/notes.md): a note's author, a teammate it mentions or may mention. */
export const NoteUser = Type.Object({ id: Type.String(), email: Type.String(), alias: Type.Union([Type.String(), Type.Null()]) });
export type NoteUser = Static<typeof NoteUser>;
/** GET notes/teammates/: the research users and admins of the tenant, whom a note may mention. */
export const Teammates = Type.Object({ results: Type.Array(NoteUser) });
export type Teammates = Static<typeof Teammates>;
/** A note as GET notes/ presents it: its fields, plus its author and the teammates it mentions. */
export const Note = Type.Intersect([
  Type.Object({
    id: Type.String(),
    display_name: Type.Union([Type.String(), Type.Null()]),
    record: Type.Union([RelatedRef, Type.Null()]),
    body: Type.String(),
    mentions: Type.Array(Type.String()),
    author: Type.Union([NoteUser, Type.Null()]),
    mentioned: Type.Array(NoteUser),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
  Type.Record(Type.String(), Type.Unknown()),
]);
export type Note = Static<typeof Note>;
/** Where a suggestion accepted into a record was found (its provenance). */
export const ActivitySource = Type.Object({ source_kind: Type.String(), source_id: Type.Union([Type.String(), Type.Null()]), snippet: Type.String() });
/** One item of a record's activity timeline: a note, an edit (an audit entry as the viewer may see it) or an accepted suggestion. */
export const ActivityItem = Type.Union([
  Type.Object({ type: Type.Literal('comment'), id: Type.String(), at: Type.String(), note: Note }),
  Type.Object({ type: Type.Literal('edit'), id: Type.String(), at: Type.String(), entry: AuditEntry }),
  Type.Object({
    type: Type.Literal('suggestion'), id: Type.String(), at: Type.String(), entry: AuditEntry,
    suggestion: Type.Object({ how: Type.Union([Type.Literal('accepted'), Type.Literal('merged')]), sources: Type.Array(ActivitySource) }),
  }),
]);
export type ActivityItem = Static<typeof ActivityItem>;
/** GET {path}/{id}/activity/: a record's timeline, newest first, one page. */
export const ActivityPage = resourcePage(ActivityItem);
export type ActivityPage = Static<typeof ActivityPage>;

// Intelbooks (docs/intelbooks.md, modules/facts)

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A fact as the reader shows it, with the children the reader may see (in order). */
export interface FactTree {
  id: string;
  text: string;
  visibility: 'hidden' | 'paywalled' | 'public';
  position: number;
  valid_from: string | null;
  valid_from_incomplete_day: boolean;
  valid_from_incomplete_month: boolean;
  valid_from_incomplete_year: boolean;
  valid_to: string | null;
  valid_to_incomplete_day: boolean;
  valid_to_incomplete_month: boolean;
  valid_to_incomplete_year: boolean;
  keywords: RelatedRef[];
  organizations: RelatedRef[];
  people: RelatedRef[];
  ledger_entries: RelatedRef[];
  sources_library: RelatedRef[];
  /** Research users and admins only (absent for other readers). */
  sources_raw_data?: RelatedRef[];
  source_urls: string[];
  /** Facts below this one hidden from the reader by the paywall (public visitors). */
  locked_children: number;
  children: FactTree[];
}
/** The period a fact is true for: two incomplete dates with their flags. */
export type FactPeriod = Pick<FactTree, `valid_${'from' | 'to'}${'' | '_incomplete_day' | '_incomplete_month' | '_incomplete_year'}`>;
const refs = Type.Array(RelatedRef);
// Documented one level deep: `children` are FactTrees again (serialized as they are).
export const FactTree = Type.Object({
  id: Type.String(),
  text: Type.String(),
  visibility: Type.Union([Type.Literal('hidden'), Type.Literal('paywalled'), Type.Literal('public')]),
  position: Type.Integer(),
  valid_from: NullableString,
  valid_from_incomplete_day: Type.Boolean(),
  valid_from_incomplete_month: Type.Boolean(),
  valid_from_incomplete_year: Type.Boolean(),
  valid_to: NullableString,
  valid_to_incomplete_day: Type.Boolean(),
  valid_to_incomplete_month: Type.Boolean(),
  valid_to_incomplete_year: Type.Boolean(),
  keywords: refs,
  organizations: refs,
  people: refs,
  ledger_entries: refs,
  sources_library: refs,
  sources_raw_data: Type.Optional(refs),
  source_urls: Type.Array(Type.String()),
  locked_children: Type.Integer({ minimum: 0 }),
  children: Type.Array(Type.Unknown({ description: 'FactTree' })),
});

const Heading = { id: Type.String(), name: Type.String(), description: NullableString };

/** GET facts/view/: sections → categories → fact trees, and how many facts the paywall hides. */
export const FactsView = Type.Object({
  sections: Type.Array(Type.Object({
    ...Heading,
    categories: Type.Array(Type.Object({
      /** null: the section's facts without a category (last). */
      id: NullableString,
      name: NullableString,
      description: NullableString,
      facts: Type.Array(FactTree),
    })),
  })),
  locked_count: Type.Integer({ minimum: 0 }),
});
export type FactsView = Omit<Static<typeof FactsView>, 'sections'> & {
  sections: Array<{ id: string; name: string; description: string | null; categories: Array<{ id: string | null; name: string | null; description: string | null; facts: FactTree[] }> }>;
};

/** GET facts/shared/{code}/: the shared subtree as the viewer's audience sees it. */
export const SharedFacts = Type.Object({
  /** null when the fact itself is behind the paywall for this viewer (locked_count says how many facts). */
  root: Type.Union([FactTree, Type.Null()]),
  locked_count: Type.Integer({ minimum: 0 }),
  expires_at: NullableString,
});
export type SharedFacts = { root: FactTree | null; locked_count: number; expires_at: string | null };

export const ShareCodeCreated = Type.Object({
  id: Type.String(),
  code: Type.String(),
  url_path: Type.String(),
  expires_at: NullableString,
});
export type ShareCodeCreated = Static<typeof ShareCodeCreated>;

export const ShareCode = Type.Object({
  id: Type.String(),
  code: Type.String(),
  url_path: Type.String(),
  fact: Type.Object({ id: Type.String(), text: Type.String() }),
  view_count: Type.Integer({ minimum: 0 }),
  last_viewed_at: NullableString,
  created_at: Type.String(),
  created_by: NullableString,
  expires_at: NullableString,
  expired: Type.Boolean(),
  revoked: Type.Boolean(),
  revoked_at: NullableString,
});
export type ShareCode = Static<typeof ShareCode>;
export const ShareCodePage = resourcePage(ShareCode);
export type ShareCodePage = Static<typeof ShareCodePage>;
