import { SuggestionReviewPage } from '../../components/SuggestionReviewPage';
import { peopleView } from './people.view';

/** suggested-entities/people/:id/edit: review one suggested person. */
export function PersonSuggestionPage() {
  return <SuggestionReviewPage view={peopleView} />;
}
