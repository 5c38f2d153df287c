/**
 * POST raw-data/send_to_library {ids} (docs/processing.md): a library entry per item, written
 * through the library's own engine service (its checks, history and counters), in one
 * transaction for all the items. The item remembers its entry (raw_data.library_entry), so
 * sending it again updates that entry — never a second one.
 *
 * The entry takes the item's title (else its file name, else its text's first line), an
 * abstract from its text (the first paragraphs, at most ABSTRACT_MAX characters), its source
 * URL as the public link and the source's alias (else host) as publisher, the first full
 * date processing found as the publish date, a type guessed from what the item is, and the
 * records processing linked: people as authors when they appear in the first lines (a
 * byline), organizations as assets, keywords.
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin } from '../../db/client.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { ResourceService } from '../../resources/service.ts';
import { visibleItems } from './rawdata.service.ts';

export const MAX_SEND_BATCH = 200;
export const ABSTRACT_MAX = 1_500;
/** How far into the text a person counts as a byline (an author). */
const BYLINE_CHARS = 300;

/** What an item is, as a library type (SPEC §3 "Types"). */
const TYPE_OF_KIND: Record<string, string> = {
  pdf: 'Report',
  html: 'Article',
  email: 'Documents/Notes',
  spreadsheet: 'Database/List/Ranking',
  presentation: 'Deck/Memo/Presentation',
  document: 'Documents/Notes',
  image: 'Graphic',
  audio: 'Podcast',
  video: 'Documentary',
  text: 'Documents/Notes',
};

export async function sendToLibrary(
  ctx: EngineContext,
  items: ResourceService,
  library: ResourceService,
  ids: string[],
): Promise<{ results: Array<{ id: string; library_entry: string; created: boolean }> }> {
  const rows = await visibleItems(ctx, items, ids, 'nothing was sent');
  const results = [];
  for (const item of rows) {
    const body = await entryFor(ctx, item);
    const [kept] = await query<{ library_entry: string | null }>(ctx.tx, sql`SELECT library_entry FROM raw_data WHERE ${tenantPin(ctx.tx)} AND id = ${item.id} FOR UPDATE`);
    // The entry sent before, unless it was deleted since (then a new one is made).
    const current = kept?.library_entry ? ((await library.findVisibleMany(ctx.tx, ctx.actor.access, [kept.library_entry])).get(kept.library_entry) ?? null) : null;
    const entry = current ? await library.write(ctx, current, library.parseInput(body, current, ctx.actor.access)) : await library.write(ctx, null, library.parseInput(body, null, ctx.actor.access));
    await query(ctx.tx, sql`UPDATE raw_data SET library_entry = ${entry.id} WHERE id = ${item.id}`);
    results.push({ id: item.id, library_entry: entry.id, created: !current });
  }
  return { results };
}

async function entryFor(ctx: EngineContext, item: Row): Promise<Record<string, unknown>> {
  const [extra] = await query<{ extracted_text: string | null; url: string | null; alias: string | null }>(
    ctx.tx,
    sql`SELECT r.extracted_text, s.url, s.alias FROM raw_data r LEFT JOIN source_urls s ON s.id = r.source WHERE r.id = ${item.id}`,
  );
  const text = extra?.extracted_text ?? (typeof item['text'] === 'string' ? item['text'] : '');
  const found = await query<{ type: string; value: { year?: number; month?: number; day?: number } | null; record_kind: string | null; record_id: string | null; linked: boolean; start_offset: number }>(
    ctx.tx,
    // Links to records merged away, deleted or rejected since the item was processed are left out:
    // the entry names only records that are there.
    sql`SELECT e.type, e.value, e.record_kind, e.record_id, e.linked, e.start_offset FROM raw_data_entities e
        WHERE e.raw_data_id = ${item.id}
          AND (e.record_id IS NULL OR CASE e.record_kind
            WHEN 'organizations' THEN EXISTS (SELECT 1 FROM organizations o WHERE o.id = e.record_id AND o.status = 'active')
            WHEN 'people' THEN EXISTS (SELECT 1 FROM people p WHERE p.id = e.record_id AND p.status = 'active')
            WHEN 'keyword' THEN EXISTS (SELECT 1 FROM keywords k WHERE k.id = e.record_id)
            ELSE true END)
        ORDER BY e.start_offset`,
  );
  const linked = (kind: string, near?: number) =>
    [...new Set(found.filter((e) => e.linked && e.record_kind === kind && e.record_id && (near === undefined || e.start_offset < near)).map((e) => e.record_id!))];
  const date = found.find((e) => e.type === 'DATE' && e.value?.year && e.value.month && e.value.day)?.value;
  const url = extra?.url ?? null;
  const publisher = extra?.alias || (url ? hostOf(url) : null);
  const authors = linked('people', BYLINE_CHARS);
  const assets = linked('organizations');
  const keywords = linked('keyword');
  return {
    title: titleOf(item, text),
    type: TYPE_OF_KIND[String(item['content_kind'])] ?? 'Documents/Notes',
    abstract: abstractOf(text) || null,
    ...(url ? { public_link: url } : {}),
    ...(publisher ? { publisher: publisher.slice(0, 300) } : {}),
    ...(date ? { publish_date: `${date.year}-${pad(date.month!)}-${pad(date.day!)}` } : {}),
    ...(authors.length > 0 ? { authors } : {}),
    ...(assets.length > 0 ? { assets } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

function titleOf(item: Row, text: string): string {
  const title = typeof item['title'] === 'string' ? item['title'].trim() : '';
  if (title) return title.slice(0, 500);
  const file = typeof item['file_name'] === 'string' ? item['file_name'].replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[_]+/g, ' ').trim() : '';
  if (file) return file.slice(0, 500);
  const firstLine = text.split('\n').map((line) => line.trim()).find(Boolean) ?? 'Untitled';
  return firstLine.length > 200 ? `${firstLine.slice(0, 199)}…` : firstLine;
}

/** The first paragraphs of the text, whole sentences, at most ABSTRACT_MAX characters. */
export function abstractOf(text: string): string {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => p.length > 0);
  let abstract = '';
  for (const paragraph of paragraphs) {
    const next = abstract ? `${abstract}\n\n${paragraph}` : paragraph;
    if (next.length > ABSTRACT_MAX) {
      if (!abstract) {
        const cut = paragraph.slice(0, ABSTRACT_MAX);
        const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
        abstract = sentenceEnd > ABSTRACT_MAX / 3 ? cut.slice(0, sentenceEnd + 1) : `${cut.slice(0, ABSTRACT_MAX - 1)}…`;
      }
      break;
    }
    abstract = next;
  }
  return abstract;
}
