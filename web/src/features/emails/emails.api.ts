import { api } from '../../api/api';
import { resourceTags, type ResourceRecord } from '../../api/resources';

/** The engine paths of the email list and its domains (GET resources/ says the same). */
export const EMAILS_PATH = '/dxlist';
export const DOMAINS_PATH = '/dxlist/domains';

/** Where a stretch of the pasted text is: character offsets [start, end) into it, and its 1-based line. */
export interface TextSpan {
  start: number;
  end: number;
  line: number;
}

/** An address the paste added to the list: the list item, and where it was in the text. */
export type ParsedCreated = ResourceRecord & TextSpan & { email: string; name: string | null };

/** An address already in the list, or repeated in the text. */
export interface ParsedDuplicate extends TextSpan {
  email: string;
  name: string | null;
  /** The list item it repeats, when it is one already in the list. */
  existing_id: string | null;
  reason: string;
}

/** Text that looked like an address and is not one, and why. */
export interface ParsedInvalid extends TextSpan {
  text: string;
  reason: string;
}

/** POST dxlist/bulk_create/parse_text/: what the text held (docs/emails.md "The answer"). */
export interface ParseTextResult {
  created: ParsedCreated[];
  duplicates: ParsedDuplicate[];
  invalid: ParsedInvalid[];
  counts: { found: number; created: number; duplicates: number; invalid: number };
}

/** GET dxlist/email-asset-lookup/: the people and organizations holding an address (those the reader may see). */
export interface EmailHolders {
  email: string;
  organizations: Array<{ id: string; display_name: string | null }>;
  people: Array<{ id: string; display_name: string | null }>;
}

/** The public sign-up widget's request (SPEC §2 emails/add). */
export interface SubscribeRequest {
  email: string;
  name?: string;
  /** The honeypot: people never see it, so it is sent empty. */
  website: string;
  /** When the form was shown, in ms since the epoch (the server refuses a form sent in under 3 s). */
  started_at: number;
}

/** The largest text the paste dialog sends (the server's limit for raw_text). */
export const PASTE_MAX_BYTES = 1024 * 1024;

/** What a paste changes: both lists (a new address may bring a new domain, and counts move), their filters, the counts. */
const pasted = () => [
  resourceTags.list(EMAILS_PATH),
  resourceTags.filters(EMAILS_PATH),
  resourceTags.list(DOMAINS_PATH),
  resourceTags.filters(DOMAINS_PATH),
  'Counts' as const,
];

export const emailsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST dxlist/bulk_create/parse_text: every address in the text, added unless already there. */
    parseText: build.mutation<ParseTextResult, string>({
      query: (rawText) => ({ url: 'dxlist/bulk_create/parse_text/', method: 'POST', body: { raw_text: rawText }, timeout: 120_000 }),
      invalidatesTags: (result, error) => (error || !result ? [] : pasted()),
    }),
    /** GET dxlist/email-asset-lookup/?email=: who holds the address. */
    emailHolders: build.query<EmailHolders, string>({
      query: (email) => ({ url: 'dxlist/email-asset-lookup/', params: { email } }),
    }),
    /** POST dxlist/subscribe/ (public): always 202 with the same answer, 429 when rate-limited. */
    subscribe: build.mutation<{ status: string; message: string }, SubscribeRequest>({
      query: (body) => ({ url: 'dxlist/subscribe/', method: 'POST', body }),
    }),
    /**
     * GET dxlist/confirm/?token= (public): the double opt-in's link; 404 for an unknown token. A
     * query, so the page asks once however often it renders.
     */
    confirmSubscription: build.query<{ status: string }, string>({
      query: (token) => ({ url: 'dxlist/confirm/', params: { token } }),
      keepUnusedDataFor: 0,
    }),
    /** POST dxlist/unsubscribe/?token= (public): leaves the list; 404 for an unknown token. */
    unsubscribe: build.mutation<{ status: string }, string>({
      query: (token) => ({ url: 'dxlist/unsubscribe/', method: 'POST', params: { token } }),
    }),
  }),
});

export const { useParseTextMutation, useEmailHoldersQuery, useSubscribeMutation, useConfirmSubscriptionQuery, useUnsubscribeMutation } = emailsApi;
