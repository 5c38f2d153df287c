import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * Pages everyone may open. /keywords shows geos on ?tab=1: the router passes in the geos
 * feature's table, so the two features stay apart.
 */
export function keywordsPublicRoutes(loadGeosTab: () => Promise<ComponentType>): RouteObject[] {
  return [
    {
      path: 'keywords',
      lazy: async () => {
        const [{ KeywordsPage }, GeosTab] = await Promise.all([import('./KeywordsPage'), loadGeosTab()]);
        return { Component: () => <KeywordsPage GeosTab={GeosTab} /> };
      },
    },
    {
      path: 'keywords/:id',
      lazy: async () => ({ Component: (await import('./KeywordPages')).KeywordDetailPage }),
    },
  ];
}

/** Pages for research and admin users; mounted under the research guard. */
export const keywordsResearchRoutes: RouteObject[] = [
  {
    path: 'keywords/create',
    lazy: async () => ({ Component: (await import('./KeywordPages')).KeywordCreatePage }),
  },
  {
    path: 'keywords/:id/edit',
    lazy: async () => ({ Component: (await import('./KeywordPages')).KeywordEditPage }),
  },
];
