import { createContext, useContext, type ReactNode } from 'react';
import type { ResourceView } from '../components/resource-view';

/**
 * The views of the resources other features own (their columns, labels and pages), for a
 * screen that shows records of several kinds — the Operator's results are organizations,
 * people, ledger entries or library entries; the advanced search names their fields, and those
 * of keywords and lists, by the views' labels. Each view belongs to its feature; app/ hands
 * them down here (`ResourceViewsProvider`), so the screen imports no other feature.
 */
export type ResourceViewsByKind = Readonly<Partial<Record<string, ResourceView>>>;

const ResourceViewsContext = createContext<ResourceViewsByKind>({});

export function ResourceViewsProvider({ views, children }: { views: ResourceViewsByKind; children: ReactNode }) {
  return <ResourceViewsContext value={views}>{children}</ResourceViewsContext>;
}

/** The view of a resource kind ("organizations"), or undefined when app/ gave none. */
export function useResourceView(kind: string | undefined): ResourceView | undefined {
  const views = useContext(ResourceViewsContext);
  return kind === undefined ? undefined : views[kind];
}
