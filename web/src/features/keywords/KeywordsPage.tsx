import type { ComponentType } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { DataTable } from '../../components/DataTable';
import { useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { keywordsView } from './keywords.view';

const TABS = [
  { value: '0', label: 'Keywords' },
  { value: '1', label: 'Geos' },
] as const;

function KeywordsTab() {
  return (
    <ResourceMetaGate kind={keywordsView.kind}>
      {(meta) => <KeywordsTable meta={meta} />}
    </ResourceMetaGate>
  );
}

function KeywordsTable({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  return (
    <Stack spacing={2}>
      {canWrite && (
        <Box>
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/keywords/create">
            New keyword
          </Button>
        </Box>
      )}
      <DataTable meta={meta} view={keywordsView} inlineEdit />
    </Stack>
  );
}

/**
 * /keywords (SPEC §2, launcher "Processing"): the tenant's keywords, and on ?tab=1 the geos —
 * countries and regions — every tenant shares. The geos table comes from the geos feature.
 */
export function KeywordsPage({ GeosTab }: { GeosTab: ComponentType }) {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? '1' : '0';
  // A tab starts from its own first page: the other tab's search, filters and paging are dropped.
  const selectTab = (next: string) => setParams(next === '0' ? {} : { tab: next });
  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        {tab === '1' ? 'Geos' : 'Keywords'}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, next: string) => selectTab(next)}
        aria-label="Keywords and geos"
        textColor="inherit"
        sx={{ borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        {TABS.map((entry) => (
          <Tab key={entry.value} value={entry.value} label={entry.label} id={`keywords-tab-${entry.value}`} aria-controls={`keywords-panel-${entry.value}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`keywords-panel-${tab}`} aria-labelledby={`keywords-tab-${tab}`}>
        {tab === '1' ? <GeosTab /> : <KeywordsTab />}
      </Box>
    </Stack>
  );
}
