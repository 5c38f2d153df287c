import type { EventName, EventPayload } from '@intelnotes/server/contracts';
import { SUGGESTION_LISTS } from '../../api/review';
import { truncate, type StickyToast } from '../../components/notify';
import { recordHref } from '../../components/record-links';
import { DOMAINS_PATH, EMAILS_PATH } from '../../features/emails/emails.api';
import { RAW_DATA_PATH } from '../../features/rawdata/rawdata.api';
import type { StreamMessage } from './stream';

/**
 * What the web app does with each live event (SPEC §4), in one place: a typed map from the
 * event's name to its handler. The report events need none, as the report dialog polls its task
 * (docs/web.md). An event without a handler, or of a newer server, is ignored.
 */

/** What handlers may do: refetch cached data, show a toast, go to a page. */
export interface EventContext {
  /** Refetch what the app caches (RTK Query tags). */
  refetchCached(): void;
  /** Refetch one record of a resource and the cached lists it may be in (or newly belong to). */
  refetchRecord(path: string, id: string): void;
  /** Refetch the cached lists of a resource (and the counts), e.g. when rows were added to it. */
  refetchList(path: string): void;
  /** A toast that stays open until closed or clicked; clicking it runs `onClick`. */
  stickyToast(toast: StickyToast): void;
  navigate(to: string): void;
}

type Handler<N extends EventName> = (payload: EventPayload<N>, context: EventContext, eventId: string) => void;
type Handlers = { [N in EventName]?: Handler<N> };

/** Where the suggested organizations are reviewed (SPEC §4). */
export const SUGGESTED_ORGANIZATIONS_PATH = '/organizations?tab=2';
/** SPEC §9: organization names in toasts are cut at 100 characters, plus an ellipsis. */
export const TOAST_NAME_LENGTH = 100;
/** How many of a batch's names the toast lists; it counts the others. */
export const TOAST_NAMES_SHOWN = 3;

/** The toast's text for a batch of suggested organizations, e.g. "3 new suggested organizations: A, B and 1 more". */
export function suggestedOrganizationsText({ count, items }: EventPayload<'new_suggested_organizations'>): string {
  const names = items.slice(0, TOAST_NAMES_SHOWN).map((item) => truncate(item.name, TOAST_NAME_LENGTH));
  const more = count - names.length;
  const listed = more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
  return count === 1 ? `New suggested organization: ${listed}` : `${count} new suggested organizations: ${listed}`;
}

/**
 * SPEC §4: a processing or update event upserts the raw data row in cached lists. Refetching
 * the row and the lists does it with the server's whole row (status, stage, error, source),
 * not just the payload's few fields; an error event likewise shows the row's `error` status and
 * its reason where SPEC's client set "completed" — either way the row stops looking busy.
 */
const refetchRawData = ({ id }: { id: string }, { refetchRecord }: EventContext) => refetchRecord(RAW_DATA_PATH, id);

/**
 * SPEC §4: a new suggestion "upserts into the cached suggested list". The open suggestions list
 * (and the tab's count) is refetched, so it shows the new rows in their place in its ordering.
 */
const refetchSuggestions = (path: string) => (_payload: unknown, { refetchList }: EventContext) => refetchList(path);

/**
 * SPEC §4 names no event for suggested ledger entries; they are written by the same processing
 * whose completion is announced, so a completed item also refetches the ledger's suggestions.
 */
const refetchProcessedRawData: Handler<'raw_data_process_complete'> = (payload, context) => {
  refetchRawData(payload, context);
  context.refetchList(SUGGESTION_LISTS.ledger);
};

/**
 * A domain was looked into (free mail, disposable, MX, its site, its organizations): the domain
 * and the cached domain lists are refetched, and the address lists, whose rows show the
 * domain's free-mail and disposable flags.
 */
const refetchDomain = ({ id }: { id: string }, { refetchRecord, refetchList }: EventContext) => {
  refetchRecord(DOMAINS_PATH, id);
  refetchList(EMAILS_PATH);
};

/** The toast's text for a note that mentions the user, e.g. "mate@acme.test mentioned you on Acme GmbH". */
export function noteMentionText({ by, record }: EventPayload<'note_mention'>): string {
  const where = record.display_name ? truncate(record.display_name, TOAST_NAME_LENGTH) : 'a record';
  return `${by ?? 'A teammate'} mentioned you on ${where}`;
}

/**
 * A note mentions the user (a personal event: only their streams get it). A toast that stays
 * open leads to the record's page, whose Activity shows the note; the activity is refetched.
 */
const noteMention: Handler<'note_mention'> = (payload, { stickyToast, navigate, refetchCached }, eventId) => {
  refetchCached();
  const href = recordHref(payload.record.kind, { id: payload.record.id });
  stickyToast({
    id: `note-mention-${eventId}`,
    message: noteMentionText(payload),
    action: href ? 'Open' : 'OK',
    onClick: () => {
      if (href) navigate(`${href}#activity`);
    },
  });
};

const handlers: Handlers = {
  note_mention: noteMention,
  raw_data_update: refetchRawData,
  raw_data_process_complete: refetchProcessedRawData,
  raw_data_error: refetchRawData,
  domain_info_enrich_complete: refetchDomain,
  new_suggested_organization: refetchSuggestions(SUGGESTION_LISTS.organizations),
  new_suggested_person: refetchSuggestions(SUGGESTION_LISTS.people),
  new_suggested_people: refetchSuggestions(SUGGESTION_LISTS.people),
  new_suggested_organizations: (payload, context, eventId) => {
    const { stickyToast, navigate } = context;
    refetchSuggestions(SUGGESTION_LISTS.organizations)(payload, context);
    stickyToast({
      // One toast per event: the event is handled once it is shown.
      id: `new-suggested-organizations-${eventId}`,
      message: suggestedOrganizationsText(payload),
      action: 'Review',
      onClick: () => navigate(SUGGESTED_ORGANIZATIONS_PATH),
    });
  },
};

/** The stream's own `reset`: events this client missed are no longer kept, so refetch what is cached. */
const RESET_EVENT = 'reset';

export function dispatchLiveEvent(message: StreamMessage, context: EventContext): void {
  if (message.event === RESET_EVENT) {
    context.refetchCached();
    return;
  }
  if (!Object.hasOwn(handlers, message.event)) return;
  const name = message.event as EventName;
  let payload: unknown;
  try {
    payload = JSON.parse(message.data);
  } catch {
    console.warn(`Live event ${name} (${message.id}) has a payload that is not JSON; ignored`);
    return;
  }
  // The payload was checked against the event's declaration when it was published (server/src/events/event-map.ts).
  (handlers[name] as Handler<typeof name>)(payload as EventPayload<typeof name>, context, message.id);
}
