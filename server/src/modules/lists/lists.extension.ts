/**
 * Lists as an engine extension (resources/extensions.ts): records of a resource declaring
 * `listItem` can be items of lists of its kind. The engine knows nothing of lists; through
 * these hooks a record presents the lists holding it (`lists`, `lists_as_item`), a write
 * may set them (`lists`), and a merge moves the other record's memberships to the survivor.
 */
import type { EngineExtension } from '../../resources/extensions.ts';
import { addListItem } from '../../resources/repository.ts';
import * as repo from './lists.repository.ts';

export const listsExtension: EngineExtension = {
  name: 'lists',

  mergePreview: async (tx, { resource, otherId }) => {
    const counts: Record<string, number> = {};
    const items = resource.listItem ? await repo.membershipsOf(tx, resource, otherId) : [];
    if (items.length > 0) counts['lists'] = items.length;
    return counts;
  },

  onMerge: async ({ tx, actor }, { resource, survivorId, otherId }) => {
    if (!resource.listItem) return undefined;
    const survivorLists = new Set((await repo.membershipsOf(tx, resource, survivorId)).map((item) => item.list_id));
    const recorded: MergedMembership[] = [];
    for (const item of await repo.membershipsOf(tx, resource, otherId)) {
      const survivorWasIn = survivorLists.has(item.list_id);
      recorded.push({ ...item, survivorWasIn });
      if (!survivorWasIn) await addListItem(tx, resource, actor.tenantId, item.list_id, survivorId);
    }
    return recorded;
  },

  undoMerge: async ({ tx, actor }, { resource, survivorId, otherId }, recorded) => {
    if (!resource.listItem) return;
    for (const item of recorded as MergedMembership[]) {
      await repo.restoreMembership(tx, resource, actor.tenantId, item.list_id, otherId, item.position);
      if (!item.survivorWasIn) await repo.deleteItem(tx, item.list_id, survivorId);
    }
  },
};

/** A membership of the other record at a merge, and whether the survivor was in the list already. */
interface MergedMembership {
  list_id: string;
  position: number;
  survivorWasIn: boolean;
}
