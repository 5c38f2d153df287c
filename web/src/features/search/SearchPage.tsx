import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { AdvancedSearch } from './AdvancedSearch';
import { LazyOperatorTab } from './operator/LazyOperatorTab';

/** /search: advanced search (?q=) and, on ?tab=1, the Operator. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? 1 : 0;

  const selectTab = (next: number) => {
    const updated = new URLSearchParams(params);
    if (next === 0) updated.delete('tab');
    else updated.set('tab', String(next));
    setParams(updated);
  };

  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
        Search
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, next: number) => selectTab(next)}
        aria-label="Search modes"
        textColor="inherit"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        <Tab label="Advanced search" id="search-tab-0" aria-controls="search-panel-0" />
        <Tab label="Operator" id="search-tab-1" aria-controls="search-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`search-panel-${tab}`} aria-labelledby={`search-tab-${tab}`}>
        {tab === 0 ? (
          <AdvancedSearch />
        ) : (
          <LazyOperatorTab />
        )}
      </Box>
    </>
  );
}
