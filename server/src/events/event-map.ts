/**
 * Every live event of SPEC §4, declared once: its name, the channel it goes out on and the
 * shape of its payload. `publish` (bus.ts) checks a payload against its declaration, the
 * stream sends it as declared, and the web app imports the types (contracts.ts re-exports
 * them), so the three never disagree. docs/events.md is the contract in prose.
 *
 * Payloads are small and name records by id: ids, statuses, counts, and the one name a toast
 * shows. Never a restricted field, never a record body — a client that needs the record
 * fetches it, through the API's own access rules. An event's channel is the lowest audience
 * that may see every record it names: raw data, suggestions, email domains and raw data
 * reports are research work (SPEC §2, research-group routes), so all of SPEC §4's events go
 * out on `research`.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type { AccessLevel } from '../contracts.ts';

/** SPEC §6's channels. */
export const EVENT_CHANNELS = ['all', 'research', 'admin'] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** SPEC §6: everyone (signed in) gets all; research also research; admin gets admin and research. */
export const CHANNELS_OF_ACCESS: Record<AccessLevel, readonly EventChannel[]> = {
  public: [],
  paywall: ['all'],
  research: ['all', 'research'],
  admin: ['all', 'research', 'admin'],
};

const Id = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
/** A raw data item's processing status (the value its list filters on). */
const ProcessingStatus = Type.String({ pattern: '^[a-z][a-z_]{0,39}$' });
/** Why something failed, in words a user can read (no stack traces, no internals). */
const Reason = Type.String({ minLength: 1, maxLength: 500 });
/** The raw data item a suggestion was found in; null when it came from elsewhere. */
const Source = Type.Union([Id, Type.Null()]);
/** How many ids a batch event lists; `count` says how many there were in all. */
const MAX_BATCH_ITEMS = 100;

const closed = <P extends Record<string, TSchema>>(properties: P) => Type.Object(properties, { additionalProperties: false });

const RawDataChange = closed({ id: Id, processing_status: ProcessingStatus, updated_at: Timestamp });

export interface EventDeclaration<S extends TSchema = TSchema> {
  channel: EventChannel;
  payload: S;
  /**
   * Sent to one user of the channel (publish's `recipient`), not to all of it: e.g. the
   * teammate a note mentions. Other streams skip it (their place moves on, no reset).
   */
  personal?: boolean;
}

const defineEvent = <S extends TSchema>(declaration: EventDeclaration<S>) => declaration;

export const EVENTS = {
  /** A raw data item finished processing. */
  raw_data_process_complete: defineEvent({ channel: 'research', payload: RawDataChange }),
  /** A raw data item changed (status, bucket, source). */
  raw_data_update: defineEvent({ channel: 'research', payload: RawDataChange }),
  /** Processing a raw data item failed; the client shows the reason and treats it as completed (SPEC §4). */
  raw_data_error: defineEvent({ channel: 'research', payload: closed({ id: Id, reason: Reason, updated_at: Timestamp }) }),
  /** An email domain's information was enriched. */
  domain_info_enrich_complete: defineEvent({ channel: 'research', payload: closed({ id: Id, updated_at: Timestamp }) }),
  /** One organization was suggested; `name` is what a list or toast shows (name_dba, else name_inc). */
  new_suggested_organization: defineEvent({
    channel: 'research',
    payload: closed({ id: Id, name: Type.String({ maxLength: 300 }), raw_data_id: Source, updated_at: Timestamp }),
  }),
  /** Several organizations were suggested at once (the toast that stays open, SPEC §4). */
  new_suggested_organizations: defineEvent({
    channel: 'research',
    payload: closed({
      raw_data_id: Source,
      count: Type.Integer({ minimum: 1 }),
      items: Type.Array(closed({ id: Id, name: Type.String({ maxLength: 300 }) }), { minItems: 1, maxItems: MAX_BATCH_ITEMS }),
    }),
  }),
  /** One person was suggested. */
  new_suggested_person: defineEvent({ channel: 'research', payload: closed({ id: Id, raw_data_id: Source, updated_at: Timestamp }) }),
  /** Several people were suggested at once. */
  new_suggested_people: defineEvent({
    channel: 'research',
    payload: closed({
      raw_data_id: Source,
      count: Type.Integer({ minimum: 1 }),
      ids: Type.Array(Id, { minItems: 1, maxItems: MAX_BATCH_ITEMS }),
    }),
  }),
  /** The raw data analysis report began; `task_id` is what its status is polled by. */
  generate_raw_data_report_start: defineEvent({ channel: 'research', payload: closed({ task_id: Id }) }),
  generate_raw_data_report_complete: defineEvent({ channel: 'research', payload: closed({ task_id: Id }) }),
  generate_raw_data_report_error: defineEvent({ channel: 'research', payload: closed({ task_id: Id, reason: Reason }) }),
  /**
   * A note mentions the recipient (docs/notes.md): personal, to that teammate only. `record`
   * is the record the note is on (its kind, id and name as a link shows it); `by` who wrote it.
   */
  note_mention: defineEvent({
    channel: 'research',
    personal: true,
    payload: closed({
      id: Id,
      record: closed({ kind: Type.String({ pattern: '^[a-z_]{1,40}$' }), id: Id, display_name: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]) }),
      by: Type.Union([Type.String({ maxLength: 254 }), Type.Null()]),
      created_at: Timestamp,
    }),
  }),
} satisfies Record<string, EventDeclaration>;

export type EventName = keyof typeof EVENTS;
export type EventPayload<N extends EventName> = Static<(typeof EVENTS)[N]['payload']>;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

/** One event as the stream delivers it: `id:` and `event:` lines, the payload as `data:`. */
export type LiveEvent = { [N in EventName]: { id: number; name: N; payload: EventPayload<N> } }[EventName];

/**
 * What the stream itself says (never published, never stored):
 * - `reset`: the events since the client's Last-Event-ID are no longer kept; reload what is
 *   shown. Its id is the tenant's current last event id, from which the stream goes on.
 * - `stream_closed`: the server is about to end the stream, and why. After
 *   `connection_limit` a client should not reconnect (it would close another of the user's
 *   streams); after the others it reconnects as usual (and a signed-out one then gets 401).
 */
export const STREAM_EVENTS = { reset: 'reset', closed: 'stream_closed' } as const;
export interface ResetPayload {
  last_event_id: number;
}
export const CLOSE_REASONS = ['connection_limit', 'signed_out', 'access_changed', 'shutdown'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];
export interface StreamClosedPayload {
  reason: CloseReason;
}
