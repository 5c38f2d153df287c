import * as msgreader from '@kenjiuno/msgreader';
import type { FieldsData } from '@kenjiuno/msgreader';
import type { ExtractionContext } from './context.ts';
import { htmlToText } from './html.ts';
import { TextExtractionError } from './types.ts';

// The package is CommonJS with its class as `default`: under Node's ESM loader that is the namespace's default.default.
const MsgReader = msgreader.default.default;

const person = (name: string | undefined, email: string | undefined) =>
  name && email && name !== email ? `${name} <${email}>` : email || name || '';

function headerLines(fields: FieldsData): string[] {
  const recipients = (kind: 'to' | 'cc' | 'bcc') =>
    (fields.recipients ?? [])
      .filter((recipient) => (recipient.recipType ?? 'to') === kind)
      .map((recipient) => person(recipient.name, recipient.smtpAddress || recipient.email))
      .filter(Boolean)
      .join(', ');
  const sent = fields.clientSubmitTime || fields.messageDeliveryTime;
  const date = sent && !Number.isNaN(Date.parse(sent)) ? new Date(sent).toISOString() : '';
  return [
    ['From', person(fields.senderName, fields.senderSmtpAddress || fields.senderEmail)],
    ['To', recipients('to')],
    ['Cc', recipients('cc')],
    ['Bcc', recipients('bcc')],
    ['Date', date],
    ['Subject', fields.subject ?? ''],
  ]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`);
}

/**
 * An Outlook message (.msg, [MS-OXMSG]) with @kenjiuno/msgreader: the headers an analyst reads,
 * the body (plain text, else the HTML body read as a page), then each attachment read as a
 * file of its own — an attached message too (msgreader gives it back as a .msg of its own).
 */
export async function extractMsg(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  let reader: InstanceType<typeof MsgReader>;
  let fields: FieldsData;
  try {
    reader = new MsgReader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    fields = reader.getFileData();
  } catch (error) {
    throw new TextExtractionError('corrupt', `Not a readable Outlook message: ${(error as Error).message}`, { cause: error });
  }
  if (fields.error) throw new TextExtractionError('corrupt', `Not a readable Outlook message: ${fields.error}`);
  ctx.out.append(headerLines(fields).join('\n'), 'e-mail headers');
  if (fields.body?.trim()) ctx.out.append(fields.body, 'e-mail body');
  else if (fields.bodyHtml?.trim()) ctx.out.append(htmlToText(fields.bodyHtml, false), 'e-mail body');

  const attachments = (fields.attachments ?? []).filter((attachment) => !attachment.attachmentHidden);
  for (const [index, attachment] of attachments.entries()) {
    const name = attachment.fileName || attachment.name || attachment.fileNameShort || `${index + 1}`;
    let content: Uint8Array;
    try {
      content = reader.getAttachment(attachment).content;
    } catch (error) {
      ctx.out.warn(`attachment ${name} could not be read: ${(error as Error).message}`);
      continue;
    }
    if (content.length === 0) {
      ctx.out.warn(`attachment ${name} is empty`);
      continue;
    }
    await ctx.extractNested({ bytes: content, fileName: name, mime: attachment.attachMimeTag }, `attachment ${name}`);
    ctx.progress((index + 1) / attachments.length);
  }
  // An S/MIME-encrypted message carries its content as an attachment (smime.p7m) nobody here can open.
  if (/encrypted|smime/i.test(fields.messageClass ?? '') && !fields.body?.trim()) ctx.out.warn('The message is encrypted (S/MIME): its body could not be read');
}
