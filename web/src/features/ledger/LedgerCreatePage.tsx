import { ResourceCreatePage } from '../../components/ResourceFormPage';
import { ledgerView } from './ledger.view';

export function LedgerCreatePage() {
  return <ResourceCreatePage view={ledgerView} />;
}
