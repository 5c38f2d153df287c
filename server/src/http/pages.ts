/**
 * The one place list answers get their links: services return a page as
 * offset, limit and total; the route turns it into `{count, next, previous,
 * results}` with `next` and `previous` links that keep the request's other
 * parameters.
 */
import type { FastifyRequest } from 'fastify';
import type { ResultPage } from '../resources/list-query.ts';

export interface Page<T> {
  count: number;
  count_is_estimate?: boolean;
  search_includes_similar?: boolean;
  similar_words?: string[];
  next: string | null;
  previous: string | null;
  results: T[];
}

function pageLink(request: FastifyRequest, offset: number, limit: number): string {
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  return `${url.pathname}${url.search}`;
}

export function pageOf<T>(request: FastifyRequest, page: ResultPage<T>): Page<T> {
  const { count, offset, limit, results } = page;
  const answer: Page<T> = {
    count,
    next: offset + results.length < count ? pageLink(request, offset + limit, limit) : null,
    previous: offset > 0 ? pageLink(request, Math.max(0, offset - limit), limit) : null,
    results,
  };
  if (page.count_is_estimate) answer.count_is_estimate = true;
  if (page.search_includes_similar) answer.search_includes_similar = true;
  if (page.similar_words) answer.similar_words = page.similar_words;
  return answer;
}
