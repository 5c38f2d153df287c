import type { ResourceView } from '../../components/resource-view';

/** Sections and categories: ordered headings with a description, edited at /{path}, with no page of their own. */
const headingsView = (kind: string, path: string, title: string, emptyText: string): ResourceView => ({
  kind,
  basePath: path,
  listPath: path,
  title,
  emptyText,
  columns: ['display_name', 'description', 'position', 'updated_at'],
  recordPage: false,
});

/** Sections (admin): the reader's top headings, ordered by position, then name. */
export const sectionsView = headingsView('fact_section', '/sections', 'Sections', 'No sections yet: add one, then add facts to it in the intelbooks editor.');

/** Categories (admin): the groups of facts inside each section. */
export const categoriesView = headingsView('fact_category', '/categories', 'Categories', 'No categories yet.');

/**
 * Facts (admin): their list is the intelbooks editor (/facts), where they are placed in their
 * trees; the forms edit one fact's fields (its place among its siblings is the editor's).
 */
export const factsView: ResourceView = {
  kind: 'facts',
  basePath: '/facts',
  listPath: '/facts',
  title: 'Intelbooks',
  columns: ['display_name', 'section', 'category', 'visibility', 'updated_at'],
  labels: {
    text: 'Fact',
    parent: 'Parent fact',
    sources_library: 'Sources: library entries',
    sources_raw_data: 'Sources: raw data',
    source_urls: 'Sources: URLs',
    ledger_entries: 'Ledger entries',
    valid_from: 'True from',
    valid_to: 'True until',
  },
  omit: ['position'],
  recordPage: false,
};

/** The editor and the reader (SPEC §2). */
export const EDITOR_PATH = '/facts';
export const factEditPath = (id: string) => `/facts/${encodeURIComponent(id)}/edit`;
