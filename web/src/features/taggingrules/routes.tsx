import type { RouteObject } from 'react-router';

/** Tagging rules are research material: every page is mounted under the research guard. */
export const taggingRulesResearchRoutes: RouteObject[] = [
  { path: 'taggingrules', lazy: async () => ({ Component: (await import('./TaggingRulePages')).TaggingRuleListPage }) },
  { path: 'taggingrules/create', lazy: async () => ({ Component: (await import('./TaggingRulePages')).TaggingRuleCreatePage }) },
  { path: 'taggingrules/:id', lazy: async () => ({ Component: (await import('./TaggingRulePages')).TaggingRuleDetailPage }) },
  { path: 'taggingrules/:id/edit', lazy: async () => ({ Component: (await import('./TaggingRulePages')).TaggingRuleEditPage }) },
];
