/**
 * The Operator (docs/operator.md): a question → a structured query, the list request that
 * runs it, and what was understood. The chat endpoint's answer is used when it holds up,
 * else the built-in parser's; a query edited by hand is checked the same way.
 */
import { MAX_QUESTION_LENGTH, type OperatorAnswer, type StructuredQuery } from '../../contracts.ts';
import { fieldError } from '../../resources/errors.ts';
import type { Catalog } from '../../resources/catalog.ts';
import type { EngineContext } from '../../resources/context.ts';
import { relatedRefs } from '../../resources/relations.ts';
import { explain } from './explain.ts';
import { queryFromModel, type ModelAnswer } from './operator-model.ts';
import { parseQuestion } from './parser.ts';
import { writeRefusal, writeVerb } from './refusal.ts';
import { DatabaseResolver } from './resolver.ts';
import { checkStructuredQuery, listRequest, operatorResource } from './structured-query.ts';

const NO_ENTITY =
  'Ask about organizations, people, ledger entries, library entries or lists, e.g. “organizations in Berlin founded after 2015” or “reports from 2023 about lithium”.';

/** The question as asked, or a 400 naming `query`: 1 to 500 characters, no NUL bytes. */
export function checkQuestion(input: unknown): string {
  if (typeof input !== 'string') throw fieldError('query', 'Must be text: the question.');
  if (input.includes('\u0000')) throw fieldError('query', 'Must not contain NUL bytes.');
  const question = input.trim();
  if (question === '') throw fieldError('query', 'This field may not be blank: ask a question.');
  if (question.length > MAX_QUESTION_LENGTH) throw fieldError('query', `Ensure this has no more than ${MAX_QUESTION_LENGTH} characters.`);
  return question;
}

type Correction = OperatorAnswer['corrections'][number];

/**
 * An answer. A partial one (words not understood) has no list request unless the caller accepted
 * it: run without them, the query would answer more than was asked and read like an answer.
 */
function answerOf(
  query: StructuredQuery, source: OperatorAnswer['source'], notUnderstood: string[],
  options: { notes?: string[]; corrections?: Correction[]; acceptPartial?: boolean } = {},
): OperatorAnswer {
  const partial = notUnderstood.length > 0;
  const notes = [...(options.notes ?? [])];
  if (partial && !options.acceptPartial) notes.push('Nothing was run: accept the query without the words not understood, or ask again.');
  return {
    query, list: partial && !options.acceptPartial ? null : listRequest(query), partial, corrections: options.corrections ?? [],
    explanation: explain(query, notes), not_understood: notUnderstood, source,
  };
}

/**
 * Answers a question for the context's caller. `modelAnswer` is the chat endpoint's, asked
 * before the transaction opened (an endpoint may take seconds); null when there is none or it
 * failed. `onModelRejected` hears why a model's answer was not used.
 */
export async function answerQuestion(
  ctx: EngineContext,
  question: string,
  options: { today: Date; modelAnswer: ModelAnswer | null; onModelRejected?: (reason: string) => void; acceptPartial?: boolean },
): Promise<OperatorAnswer> {
  const verb = writeVerb(question);
  if (verb) throw writeRefusal(verb);
  const access = ctx.actor.access;
  const resolver = new DatabaseResolver(ctx);
  if (options.modelAnswer) {
    try {
      const query = await queryFromModel(options.modelAnswer, resolver, access);
      return answerOf(query, 'llm', [...new Set(options.modelAnswer.not_understood ?? [])], { acceptPartial: options.acceptPartial });
    } catch (error) {
      options.onModelRejected?.((error as { detail?: string }).detail ?? (error as Error).message);
    }
  }
  const parsed = await parseQuestion(question, { resolver, today: options.today, access });
  if (!parsed.query) throw fieldError('query', NO_ENTITY);
  return answerOf(parsed.query, 'parser', parsed.notUnderstood, { notes: parsed.notes, corrections: parsed.corrections, acceptPartial: options.acceptPartial });
}

/** A structured query sent back (chips edited by hand): checked, with related records' names as the caller sees them. */
export async function validateQuery(ctx: EngineContext, catalog: Catalog, input: unknown): Promise<OperatorAnswer> {
  const query = checkStructuredQuery(input, ctx.actor.access);
  const resource = operatorResource(query.entity);
  const related = query.conditions.filter((condition) => resource.fields[condition.field]?.relation);
  if (related.length > 0) {
    const rows = related.map((condition) => ({ [condition.field]: condition.values }));
    const refs = await relatedRefs(ctx.tx, catalog, resource, ctx.actor.access, rows);
    // A record the caller may not see keeps the label it was sent with: nothing is told about it.
    for (const condition of related) {
      condition.labels = condition.values.map((value, index) => refs.get(value)?.display_name ?? condition.labels[index] ?? value);
    }
  }
  return answerOf(query, 'manual', []);
}
