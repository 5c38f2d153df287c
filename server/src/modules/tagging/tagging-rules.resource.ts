/**
 * Tagging rules (/taggingrules): a word, phrase or RE2 regular expression →
 * keywords, added to records whose text matches when they are saved (see
 * apply-tagging-rules.ts). Research material: research users and admins only.
 */
import { fieldError } from '../../resources/errors.ts';
import { boolean, choice, relation, text, type FieldType } from '../../resources/fields.ts';
import { defineResource, type SaveContext } from '../../resources/resource.ts';
import { compileRule, MATCH_TYPES, MAX_PATTERN_LENGTH, PatternError, type MatchType } from './matcher.ts';

/**
 * The pattern is kept as typed: spaces inside a regular expression are part
 * of it, so only a blank pattern is refused (text() would collapse them).
 */
function pattern(): FieldType {
  const base = text({ max: MAX_PATTERN_LENGTH, required: true });
  return {
    ...base,
    parse: (input, name) => {
      if (typeof input === 'string' && input.trim() !== '' && input.length <= MAX_PATTERN_LENGTH) {
        return { ok: true, value: { [name]: input.replace(/[\r\n]+/g, ' ') } };
      }
      return base.parse(input, name);
    },
  };
}

/** A rule is saved only when it compiles: the pattern's error names the field and the reason. */
async function checkPattern({ record }: SaveContext): Promise<void> {
  try {
    compileRule({
      pattern: String(record['pattern'] ?? ''),
      match_type: (record['match_type'] as MatchType | null) ?? 'word',
      case_sensitive: Boolean(record['case_sensitive']),
    });
  } catch (error) {
    if (error instanceof PatternError) throw fieldError('pattern', error.message);
    throw error;
  }
}

export const taggingRules = defineResource({
  kind: 'tagging_rules',
  type: 'TaggingRule',
  path: '/taggingrules',
  table: 'tagging_rules',
  label: 'Tagging rule',
  summary: ['match_type'],
  readAccess: 'research',
  writeAccess: 'research',
  // Not one of SPEC §3's entity counts: no counter trigger, so totals count the (few) rows.
  counterKinds: [],
  search: { fields: { name: 'A', pattern: 'A' } },
  fields: {
    name: text({ max: 200 }),
    pattern: pattern(),
    match_type: choice(MATCH_TYPES, { default: 'word' }),
    case_sensitive: boolean(false),
    keywords: relation('keyword', { required: true, max: 100 }),
    enabled: boolean(true),
  },
  ordering: ['name', 'pattern', 'match_type', 'enabled'],
  filters: ['match_type', 'enabled', 'keywords'],
  headerAliases: { rule: 'pattern', word: 'pattern', phrase: 'pattern', regex: 'pattern', type: 'match_type', tags: 'keywords', keyword: 'keywords' },
  beforeSave: [checkPattern],
});
