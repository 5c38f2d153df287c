/**
 * Turns bench/ner/passages.md (passages with inline [span](TYPE) markup) into
 * bench/ner/passages.jsonl, one {id, style, half, text, entities} per line, with
 * UTF-16 offsets computed here so they are right by construction.
 *   node --import tsx bench/ner/convert.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type GoldType = 'PER' | 'ORG' | 'MONEY';
export interface GoldEntity {
  type: GoldType;
  start: number;
  end: number;
  text: string;
}
export interface Passage {
  id: string;
  style: string;
  /** A or B: alternate passages of each style, in file order. */
  half: 'A' | 'B';
  text: string;
  entities: GoldEntity[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
const MARKUP = /\[([^\]]+)\]\((PER|ORG|MONEY)\)/g;
const LINE = /^([a-z]\d{3}) \| ([a-z]+) \| (.+)$/;

export function parsePassages(source: string): Passage[] {
  const passages: Passage[] = [];
  const seenPerStyle = new Map<string, number>();
  const ids = new Set<string>();
  for (const line of source.split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, id, style, marked] = match as unknown as [string, string, string, string];
    if (ids.has(id)) throw new Error(`passage ${id} appears twice`);
    ids.add(id);
    let text = '';
    const entities: GoldEntity[] = [];
    let last = 0;
    const unescaped = marked.replace(/\\n/g, '\n');
    for (const entity of unescaped.matchAll(MARKUP)) {
      text += unescaped.slice(last, entity.index);
      const start = text.length;
      text += entity[1];
      entities.push({ type: entity[2] as GoldType, start, end: text.length, text: entity[1]! });
      last = entity.index + entity[0].length;
    }
    text += unescaped.slice(last);
    if (/\[[^\]]*\]\(/.test(text)) throw new Error(`passage ${id}: unparsed markup`);
    const seen = seenPerStyle.get(style) ?? 0;
    seenPerStyle.set(style, seen + 1);
    passages.push({ id, style, half: seen % 2 === 0 ? 'A' : 'B', text, entities });
  }
  return passages;
}

export function loadPassages(): Passage[] {
  return readFileSync(path.join(here, 'passages.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Passage);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const passages = parsePassages(readFileSync(path.join(here, 'passages.md'), 'utf8'));
  writeFileSync(path.join(here, 'passages.jsonl'), passages.map((passage) => JSON.stringify(passage)).join('\n') + '\n');
  const count = (type: GoldType) => passages.reduce((total, passage) => total + passage.entities.filter((entity) => entity.type === type).length, 0);
  console.log(`${passages.length} passages (A ${passages.filter((p) => p.half === 'A').length}, B ${passages.filter((p) => p.half === 'B').length}); PER ${count('PER')}, ORG ${count('ORG')}, MONEY ${count('MONEY')}`);
}
