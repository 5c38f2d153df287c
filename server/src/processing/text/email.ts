import PostalMime, { type Address } from 'postal-mime';
import { abortable, type ExtractionContext } from './context.ts';
import { extractHtml } from './html.ts';
import { TextExtractionError } from './types.ts';

function formatAddresses(addresses: Address[] | Address | undefined): string {
  const list = addresses === undefined ? [] : Array.isArray(addresses) ? addresses : [addresses];
  return list
    .flatMap((address) => (address.group ? address.group : [address]))
    .map((mailbox) => (mailbox.name && mailbox.address ? `${mailbox.name} <${mailbox.address}>` : mailbox.address || mailbox.name))
    .filter(Boolean)
    .join(', ');
}

/**
 * An e-mail (.eml, RFC 5322 with MIME): the headers an analyst reads (From, To, Cc, Date,
 * Subject), the body (its plain text part, else its HTML part read as a page), then each
 * attachment read as a file of its own. Messages attached to messages are attachments too.
 */
export async function extractEmail(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  let email;
  try {
    email = await abortable(PostalMime.parse(bytes, { forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer' }), ctx.signal);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable e-mail: ${(error as Error).message}`, { cause: error });
  }
  const headers = [
    ['From', formatAddresses(email.from)],
    ['To', formatAddresses(email.to)],
    ['Cc', formatAddresses(email.cc)],
    ['Date', email.date ?? ''],
    ['Subject', email.subject ?? ''],
  ]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`);
  ctx.out.append(headers.join('\n'), 'e-mail headers');
  if (email.text?.trim()) ctx.out.append(email.text, 'e-mail body');
  else if (email.html) await ctx.out.group('e-mail body', async () => void extractHtml(email.html!, ctx));
  ctx.progress(0.2);

  const attachments = email.attachments.filter((attachment) => attachment.disposition !== 'inline' || attachment.filename);
  for (const [index, attachment] of attachments.entries()) {
    const content = attachment.content;
    const bytesOf = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
    const name = attachment.filename || `${index + 1} (${attachment.mimeType})`;
    await ctx.extractNested({ bytes: bytesOf, fileName: attachment.filename ?? undefined, mime: attachment.mimeType }, `attachment ${name}`);
    ctx.progress(0.2 + (0.8 * (index + 1)) / attachments.length);
  }
}
