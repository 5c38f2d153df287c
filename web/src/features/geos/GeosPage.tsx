import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { CitiesTable, GeosTable } from './GeoTables';

/** /geos (SPEC §2, public): countries and regions, and on ?tab=1 the cities. */
export function GeosPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? '1' : '0';
  // Each tab starts from its own first page, without the other's search and filters.
  const selectTab = (next: string) => setParams(next === '0' ? {} : { tab: next });
  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Geos
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, next: string) => selectTab(next)}
        aria-label="Geos"
        textColor="inherit"
        sx={{ borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        <Tab value="0" label="Countries and regions" id="geos-tab-0" aria-controls="geos-panel-0" />
        <Tab value="1" label="Cities" id="geos-tab-1" aria-controls="geos-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`geos-panel-${tab}`} aria-labelledby={`geos-tab-${tab}`}>
        {tab === '1' ? <CitiesTable /> : <GeosTable />}
      </Box>
    </Stack>
  );
}
