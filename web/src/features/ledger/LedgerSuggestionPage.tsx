import { SuggestionReviewPage } from '../../components/SuggestionReviewPage';
import { ledgerView } from './ledger.view';

/** suggested-entities/ledger/:id/edit: review one suggested ledger entry. */
export function LedgerSuggestionPage() {
  return <SuggestionReviewPage view={ledgerView} />;
}
