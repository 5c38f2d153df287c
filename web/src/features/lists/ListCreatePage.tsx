import { useEffect } from 'react';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EntityForm, type EntityFormApi } from '../../components/EntityForm';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { isListType, kindByType, LIST_KINDS, type ListType } from './list-kinds';
import { listsView } from './lists.view';
import { PageHeading } from '../../components/PageHeading';

/** Puts the type chosen on the previous step into the form (it can still be changed there). */
function ChosenType({ form, type }: { form: EntityFormApi; type: ListType }) {
  const { setValues } = form;
  useEffect(() => {
    setValues((values) => ({ ...values, kind: type }));
  }, [setValues, type]);
  return null;
}

/** The first step: which kind of list, each with what it holds. */
function TypeChooser() {
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">What will the list hold? The type cannot be changed later.</Typography>
      <Stack component="ul" aria-label="Type of list" direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: 2, flexWrap: 'wrap', p: 0, listStyle: 'none' }}>
        {LIST_KINDS.map((kind) => (
          <Card key={kind.type} component="li" variant="outlined" sx={{ flex: { sm: '1 1 12rem' } }}>
            <CardActionArea component={RouterLink} to={`/lists/create?type=${kind.type}`} sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
                  {kind.label}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  An ordered list of {kind.items}.
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}

/** lists/create: choose the type (or come with ?type=PeopleList), then name and describe the list. */
export function ListCreatePage() {
  const [params] = useSearchParams();
  const typeParam = params.get('type');
  const type = isListType(typeParam) ? typeParam : null;
  const kind = type ? kindByType(type) : undefined;
  return (
    <ResourceMetaGate kind="lists">
      {(meta) => (
        <Stack spacing={3} sx={{ maxWidth: 960 }}>
          <PageHeading>{`New ${kind ? kind.label.toLowerCase() : 'list'}`}</PageHeading>
          {type ? (
            <EntityForm key={type} meta={meta} view={listsView} renderBeforeFields={(form) => <ChosenType form={form} type={type} />} />
          ) : (
            <TypeChooser />
          )}
        </Stack>
      )}
    </ResourceMetaGate>
  );
}
