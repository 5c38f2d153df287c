import { ResourceListPage } from '../../components/ResourceListPage';
import { ledgerView } from './ledger.view';

export function LedgerListPage() {
  return <ResourceListPage view={ledgerView} reviewed />;
}
