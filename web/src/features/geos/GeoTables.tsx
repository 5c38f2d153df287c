import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { DataTable } from '../../components/DataTable';
import { useCanWrite, type ResourceView } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { citiesView, geosView } from './geos.view';

function SharedTable({ meta, view, note }: { meta: ResourceMeta; view: ResourceView; note: string }) {
  // Tenant managers only: the API refuses everyone else.
  const canWrite = useCanWrite(meta);
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography color="text.secondary">{note}</Typography>
        {canWrite && (
          <Box sx={{ flexShrink: 0 }}>
            <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={`${view.basePath}/create`}>
              New {meta.label.toLowerCase()}
            </Button>
          </Box>
        )}
      </Stack>
      <DataTable meta={meta} view={view} />
    </Stack>
  );
}

/** Countries and regions, as on /geos and /keywords?tab=1. */
export function GeosTable() {
  return (
    <ResourceMetaGate kind={geosView.kind}>
      {(meta) => (
        <SharedTable
          meta={meta}
          view={geosView}
          note="Every ISO 3166 country and a few regions (groups of countries), shared by all workspaces."
        />
      )}
    </ResourceMetaGate>
  );
}

/** Cities, shared by every workspace. */
export function CitiesTable() {
  return (
    <ResourceMetaGate kind={citiesView.kind}>
      {(meta) => (
        <SharedTable meta={meta} view={citiesView} note="National capitals and cities of at least 100,000 inhabitants (GeoNames), shared by all workspaces." />
      )}
    </ResourceMetaGate>
  );
}
