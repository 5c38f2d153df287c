/**
 * The public sign-up widget (SPEC §2 emails/add, docs/emails.md "The sign-up widget"): a
 * visitor asks to join the tenant's list; a mail with a confirmation link makes it so (double
 * opt-in), and every mail carries an unsubscribe link.
 *
 * - The answer is the same for a new address, one already in the list, one already confirmed
 *   and a bot caught by the honeypot or the time check: nobody learns from it whether an
 *   address is on the list.
 * - Sign-ups are limited per IP address and per e-mail address (the sign-in's counters,
 *   auth/sessions.repository.ts), so the widget cannot be used to flood someone's mailbox.
 * - Tokens are 32 random bytes; only their SHA-256 is stored (email_subscription_tokens).
 *   A confirmation link expires and confirms once; an unsubscribe link keeps working.
 * - Mail goes out after the transaction commits, through the configured transport
 *   (mail/mail.ts); a transport failure is logged, never shown to the visitor.
 */
import type { Config } from '../../config.ts';
import type { Database, Tx } from '../../db/client.ts';
import { hashToken, newToken } from '../../auth/tokens.ts';
import { takeLimitSlots } from '../../auth/sessions.repository.ts';
import { conflict, fieldError, notFound, tooManyRequests, ApiError } from '../../resources/errors.ts';
import { inTenant, systemActor, type EngineContext } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { MailMessage, MailTransport } from '../../mail/mail.ts';
import { normalizeAddress, type NormalizedAddress } from './email-address.ts';
import type { EmailListService } from './emails.service.ts';
import { dropOpenConfirmTokens, findToken, insertToken, lockItem, lockItemByEmail, markTokenUsed } from './emails.repository.ts';

export const SUBSCRIBE_MESSAGE = 'Thanks! If this address can join the list, a message with a confirmation link is on its way to it.';
const NAME_MAX_LENGTH = 200;

export interface SubscribeInput {
  email: string;
  name?: string | null;
  website?: string | null;
  started_at: number;
}

export interface SubscribeContext {
  tenantId: string;
  tenantName: string;
  ip: string;
  /** The tenant's web address (scheme and host), for the links in the mail. */
  origin: string;
  /** Now, in ms (a parameter for the time check's tests). */
  now?: number;
}

interface Log {
  error(details: object, message: string): void;
}

type Outcome = { kind: 'mail'; message: MailMessage } | { kind: 'none' };

export class SubscriptionService {
  constructor(
    private readonly db: Database,
    private readonly list: EmailListService,
    private readonly settings: Config['emails'],
    private readonly mail: MailTransport,
    private readonly log: Log,
  ) {}

  async subscribe(input: SubscribeInput, context: SubscribeContext): Promise<{ status: 'pending'; message: string }> {
    const parsed = normalizeAddress(input.email);
    if (!parsed.ok) throw fieldError('email', parsed.reason);
    const name = input.name?.replace(/\s+/g, ' ').trim() || null;
    if (name !== null && name.length > NAME_MAX_LENGTH) throw fieldError('name', `Ensure this field has no more than ${NAME_MAX_LENGTH} characters.`);
    const address = parsed.value;
    const answer = { status: 'pending' as const, message: SUBSCRIBE_MESSAGE };

    // Every try counts, bots' too: per IP first, then per address (the sign-in's lock order).
    const { ipMax, addressMax, windowSeconds, minFormSeconds } = this.settings.subscribe;
    const slots = await this.db.withTenant({ tenantId: context.tenantId }, (tx) =>
      takeLimitSlots(tx, context.tenantId, [{ scope: 'subscribe_ip', key: context.ip }, { scope: 'subscribe_email', key: address.email.toLowerCase() }], windowSeconds),
    );
    const blocked = slots.filter((slot) => slot.failures > (slot.scope === 'subscribe_ip' ? ipMax : addressMax));
    if (blocked.length > 0) throw tooManyRequests(Math.max(1, ...blocked.map((slot) => slot.retryAfter)));

    // A bot fills the hidden field, or sends the form as soon as it has it: answered alike, nothing kept.
    const elapsed = (context.now ?? Date.now()) - input.started_at;
    const honeypot = typeof input.website === 'string' && input.website.trim() !== '';
    if (honeypot || (elapsed >= 0 && elapsed < minFormSeconds * 1000)) return answer;

    const outcome = await this.withRetryOnRace(() =>
      inTenant(this.db, systemActor(context.tenantId), (ctx) => this.signUp(ctx, address, name, context)),
    );
    if (outcome.kind === 'mail') await this.send(outcome.message);
    return answer;
  }

  /** Two sign-ups of one new address at once: the second finds the first's item on its retry. */
  private async withRetryOnRace<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 409) return fn();
      if (error instanceof ApiError && error.statusCode === 400 && error.errors?.['email']) return fn();
      throw error;
    }
  }

  private async signUp(ctx: EngineContext, address: NormalizedAddress, name: string | null, context: SubscribeContext): Promise<Outcome> {
    const { tx } = ctx;
    const email = address.email;
    // The mail goes to the ASCII form: a mail server may not take a Unicode domain.
    const to = address.ascii;
    let item = await lockItemByEmail(tx, email);
    if (!item) {
      const created = await this.list.items.write(ctx, null, { values: { email, name, source: 'subscribed', subscription: 'pending' } });
      item = await lockItem(tx, created.id);
      if (!item) throw conflict('The address was removed meanwhile.');
    } else if (item['subscription'] !== 'confirmed') {
      const values: Record<string, unknown> = { subscription: 'pending' };
      if (name && !item['name']) values['name'] = name;
      if (item['subscription'] !== 'pending' || values['name']) await this.list.items.write(ctx, item, { values });
    }
    const unsubscribe = await this.token(tx, item.id, 'unsubscribe', null);
    const links = this.links(context.origin, unsubscribe);
    if (item['subscription'] === 'confirmed') {
      return {
        kind: 'mail',
        message: {
          to,
          subject: `You are already on the list of ${context.tenantName}`,
          text: [
            `Someone (we hope you) asked to join the mailing list of ${context.tenantName} with this address, which is on it already: there is nothing to do.`,
            '',
            `To leave the list: ${links.unsubscribePage}`,
          ].join('\n'),
          headers: links.headers,
        },
      };
    }
    await dropOpenConfirmTokens(tx, item.id);
    const expires = new Date((context.now ?? Date.now()) + this.settings.subscribe.confirmHours * 3_600_000);
    const confirm = await this.token(tx, item.id, 'confirm', expires);
    return {
      kind: 'mail',
      message: {
        to,
        subject: `Confirm your subscription to ${context.tenantName}`,
        text: [
          `Someone (we hope you) asked to join the mailing list of ${context.tenantName} with this address.`,
          '',
          `To confirm, open this link within ${this.settings.subscribe.confirmHours} hours: ${context.origin}/emails/confirm?token=${confirm}`,
          '',
          'If it was not you, ignore this message: without the confirmation nothing is sent to this address.',
          `To leave the list at any time: ${links.unsubscribePage}`,
        ].join('\n'),
        headers: links.headers,
      },
    };
  }

  private async token(tx: Tx, itemId: string, purpose: 'confirm' | 'unsubscribe', expiresAt: Date | null): Promise<string> {
    const { token, hash } = newToken();
    await insertToken(tx, { sha256: hash, itemId, purpose, expiresAt });
    return token;
  }

  private links(origin: string, unsubscribeToken: string) {
    const unsubscribePage = `${origin}/emails/unsubscribe?token=${unsubscribeToken}`;
    return {
      unsubscribePage,
      // RFC 2369 and RFC 8058: mail clients offer a one-click unsubscribe (a POST to the API).
      headers: {
        'List-Unsubscribe': `<${origin}/api/v1/dxlist/unsubscribe/?token=${unsubscribeToken}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  }

  private async send(message: MailMessage): Promise<void> {
    try {
      await this.mail.send({ ...message, from: this.settings.mailFrom });
    } catch (error) {
      this.log.error({ err: error }, 'subscription mail could not be sent');
    }
  }

  /** Confirms the address of a confirmation link; a link confirms once, before it expires (else 404). */
  async confirm(tenantId: string, token: string): Promise<{ status: 'confirmed' }> {
    const hash = tokenHash(token);
    return inTenant(this.db, systemActor(tenantId), async (ctx) => {
      const found = hash ? await findToken(ctx.tx, hash, 'confirm') : null;
      if (!found || found.expired) throw notFound('This confirmation link is not valid (any more): sign up again.');
      const item = await lockItem(ctx.tx, found.item_id);
      if (!item) throw notFound('This confirmation link is not valid (any more): sign up again.');
      if (found.used) {
        if (item['subscription'] === 'confirmed') return { status: 'confirmed' as const };
        throw notFound('This confirmation link was used already: sign up again.');
      }
      await markTokenUsed(ctx.tx, hash!);
      if (item['subscription'] !== 'confirmed') await this.setSubscription(ctx, item, 'confirmed');
      return { status: 'confirmed' as const };
    });
  }

  /** Unsubscribes the address of an unsubscribe link (any number of times); an unknown link is a 404. */
  async unsubscribe(tenantId: string, token: string): Promise<{ status: 'unsubscribed' }> {
    const hash = tokenHash(token);
    return inTenant(this.db, systemActor(tenantId), async (ctx) => {
      const found = hash ? await findToken(ctx.tx, hash, 'unsubscribe') : null;
      const item = found ? await lockItem(ctx.tx, found.item_id) : null;
      if (!item) throw notFound('This unsubscribe link is not valid.');
      if (item['subscription'] !== 'unsubscribed') await this.setSubscription(ctx, item, 'unsubscribed');
      return { status: 'unsubscribed' as const };
    });
  }

  private async setSubscription(ctx: EngineContext, item: Row, state: 'confirmed' | 'unsubscribed'): Promise<void> {
    const at = new Date().toISOString();
    await this.list.items.write(ctx, item, { values: { subscription: state, ...(state === 'confirmed' ? { confirmed_at: at } : { unsubscribed_at: at }) } });
  }
}

/** A token's hash, or null for what cannot be one of ours (so it is never looked up). */
function tokenHash(token: string): string | null {
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? hashToken(token) : null;
}
