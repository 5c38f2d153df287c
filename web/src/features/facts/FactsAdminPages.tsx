import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { ResourceListPage } from '../../components/ResourceListPage';
import { categoriesView, factsView, sectionsView } from './facts.view';

export function SectionListPage() {
  return <ResourceListPage view={sectionsView} />;
}

export function SectionCreatePage() {
  return <ResourceCreatePage view={sectionsView} />;
}

export function SectionEditPage() {
  return <ResourceEditPage view={sectionsView} />;
}

export function CategoryListPage() {
  return <ResourceListPage view={categoriesView} />;
}

export function CategoryCreatePage() {
  return <ResourceCreatePage view={categoriesView} />;
}

export function CategoryEditPage() {
  return <ResourceEditPage view={categoriesView} />;
}

/** facts/create: a new fact with all its fields (the editor adds facts in place, text first). */
export function FactCreatePage() {
  return <ResourceCreatePage view={factsView} />;
}

export function FactEditPage() {
  return <ResourceEditPage view={factsView} />;
}
