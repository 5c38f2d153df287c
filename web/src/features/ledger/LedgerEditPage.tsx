import { ResourceEditPage } from '../../components/ResourceFormPage';
import { ledgerView } from './ledger.view';

export function LedgerEditPage() {
  return <ResourceEditPage view={ledgerView} />;
}
