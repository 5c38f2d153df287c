import { SuggestionReviewPage } from '../../components/SuggestionReviewPage';
import { organizationsView } from './organizations.view';

/** suggested-entities/organizations/:id/edit: review one suggested organization. */
export function OrganizationSuggestionPage() {
  return <SuggestionReviewPage view={organizationsView} />;
}
