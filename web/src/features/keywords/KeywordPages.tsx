import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { keywordsView } from './keywords.view';

export function KeywordDetailPage() {
  return <ResourceDetailPage view={keywordsView} />;
}

export function KeywordCreatePage() {
  return <ResourceCreatePage view={keywordsView} />;
}

export function KeywordEditPage() {
  return <ResourceEditPage view={keywordsView} />;
}
