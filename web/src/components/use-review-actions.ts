import { useCallback, useState } from 'react';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import type { ResourceRecord } from '../api/resources';
import { useAcceptSuggestionMutation, useRejectSuggestionMutation } from '../api/review';
import { notify, truncate } from './notify';
import { pluralNoun } from './RelationField';
import { recordName, toastName } from './resource-view';

export type Decision = 'accept' | 'reject';

/** How one decision ended: done, already decided by someone else (409) or gone (404), or failed. */
type Outcome = { result: 'done'; record: ResourceRecord | null } | { result: 'conflict' | 'gone' } | { result: 'failed'; message: string };

const statusOf = (error: unknown) => (typeof error === 'object' && error !== null && 'status' in error ? (error as { status: unknown }).status : null);

/**
 * Accepting and rejecting suggestions with the toasts that say how it went: one at a time (the
 * keyboard, the review page) or many (the selection; one call each, as the API decides one
 * suggestion per call), with a summary of what was done and what someone else decided first.
 */
export function useReviewActions(meta: ResourceMeta) {
  const [acceptCall] = useAcceptSuggestionMutation();
  const [rejectCall] = useRejectSuggestionMutation();
  const [busy, setBusy] = useState(false);
  const noun = `suggested ${meta.label.toLowerCase()}`;
  const nouns = `suggested ${pluralNoun(meta.label).toLowerCase()}`;

  const decide = useCallback(
    async (decision: Decision, id: string, linkTo: string | null = null): Promise<Outcome> => {
      try {
        if (decision === 'accept') return { result: 'done', record: await acceptCall({ meta, id, linkTo }).unwrap() };
        await rejectCall({ meta, id }).unwrap();
        return { result: 'done', record: null };
      } catch (error) {
        const status = statusOf(error);
        if (status === 409) return { result: 'conflict' };
        if (status === 404) return { result: 'gone' };
        return { result: 'failed', message: apiErrorMessage(error as ApiError) };
      }
    },
    [acceptCall, rejectCall, meta],
  );

  /** One suggestion: accepted (as a new record, or into `linkTo`) or rejected; true when it was. */
  const decideOne = useCallback(
    async (decision: Decision, suggestion: Pick<ResourceRecord, 'id' | 'display_name'>, linkTo: string | null = null): Promise<boolean> => {
      const name = `“${truncate(recordName(meta, suggestion), 100)}”`;
      setBusy(true);
      const outcome = await decide(decision, suggestion.id, linkTo).finally(() => setBusy(false));
      if (outcome.result === 'done') {
        if (decision === 'reject') notify.success(`Rejected the ${noun} ${name}.`);
        else if (linkTo && outcome.record) notify.success(`Merged ${name} into ${toastName(meta, outcome.record)}.`);
        else notify.success(`${toastName(meta, outcome.record ?? suggestion)} accepted.`);
        return true;
      }
      if (outcome.result === 'conflict') notify.warning(`The ${noun} ${name} was just reviewed by someone else.`);
      else if (outcome.result === 'gone') notify.warning(`The ${noun} ${name} is no longer waiting for review.`);
      else if (outcome.result === 'failed') notify.error(`Could not ${decision} the ${noun} ${name}: ${outcome.message}`);
      return false;
    },
    [decide, meta, noun],
  );

  /** Many suggestions, one call each in turn; one toast sums it up. Answers the ids decided. */
  const decideMany = useCallback(
    async (decision: Decision, ids: string[]): Promise<string[]> => {
      setBusy(true);
      const done: string[] = [];
      let decidedElsewhere = 0;
      const failures: string[] = [];
      try {
        for (const id of ids) {
          const outcome = await decide(decision, id);
          if (outcome.result === 'done') done.push(id);
          else if (outcome.result === 'failed') failures.push(outcome.message);
          else decidedElsewhere += 1;
        }
      } finally {
        setBusy(false);
      }
      const count = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? noun : nouns}`;
      const parts = [`${decision === 'accept' ? 'Accepted' : 'Rejected'} ${count(done.length)}`];
      if (decidedElsewhere > 0) parts.push(`${decidedElsewhere.toLocaleString('en-GB')} had already been reviewed`);
      if (failures.length > 0) parts.push(`${failures.length.toLocaleString('en-GB')} failed (${truncate(failures[0]!, 120)})`);
      const message = `${parts.join('; ')}.`;
      if (failures.length > 0) notify.error(message);
      else if (decidedElsewhere > 0) notify.warning(message);
      else notify.success(message);
      return done;
    },
    [decide, noun, nouns],
  );

  return { decideOne, decideMany, busy };
}
