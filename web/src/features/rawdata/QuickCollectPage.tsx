import { useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useCreateResourceMutation, type RelatedRef } from '../../api/resources';
import { notify, truncate } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { RecordPicker } from '../../components/RelationField';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { FileDropZone, UploadList, useFileUploads } from './FileUploads';
import { itemEditPath, rawDataView } from './rawdata.view';

/** A paste that is one web address only: collected as the item's source as well as its text. */
const URL_ONLY = /^https?:\/\/\S+$/i;

function QuickCollect({ meta }: { meta: ResourceMeta }) {
  const navigate = useNavigate();
  const [bucket, setBucket] = useState<RelatedRef | null>(null);
  const [text, setText] = useState('');
  const [create, createState] = useCreateResourceMutation();
  const [textError, setTextError] = useState<string | undefined>();
  const { uploads, start, cancel, clearFinished } = useFileUploads();
  const bucketTargets = meta.fields.find((field) => field.name === 'bucket')?.relation?.targets ?? [];
  const fields: Record<string, string> = bucket ? { bucket: bucket.id } : {};

  const collectText = async () => {
    const pasted = text.trim();
    if (pasted === '') {
      setTextError('Paste some text or a URL first.');
      return;
    }
    const isUrl = URL_ONLY.test(pasted);
    try {
      const item = await create({ path: meta.path, body: { ...fields, text: pasted, ...(isUrl ? { source_url: pasted, title: pasted } : {}) } }).unwrap();
      setText('');
      setTextError(undefined);
      notify.successWithAction(`Collected “${truncate(item.display_name ?? pasted, 100)}”.`, {
        label: 'Open',
        onClick: () => void navigate(itemEditPath(item.id)),
      });
    } catch (error) {
      const errors = apiFieldErrors(error as ApiError);
      setTextError(errors['text']?.[0] ?? errors['source_url']?.[0] ?? apiErrorMessage(error as ApiError));
    }
  };

  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Stack spacing={0.5}>
        <PageHeading>Quick collection</PageHeading>
        <Typography color="text.secondary">
          Paste text or a URL, or drop files: each goes into the bucket chosen here as a hidden raw data item.{' '}
          <Link component={RouterLink} to="/rawdata?tab=1">
            See all raw data
          </Link>
        </Typography>
      </Stack>
      <RecordPicker multiple={false} label="Bucket" targets={bucketTargets} value={bucket} onChange={setBucket} placeholder="No bucket" />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <TextField
            label="Paste text or a URL"
            multiline
            minRows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={textError !== undefined}
            helperText={textError ?? (URL_ONLY.test(text.trim()) ? 'A URL: it becomes the item’s source too.' : ' ')}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void collectText();
            }}
          />
          <Stack direction="row">
            <Button variant="contained" onClick={() => void collectText()} disabled={createState.isLoading}>
              {createState.isLoading ? 'Collecting…' : 'Collect'}
            </Button>
          </Stack>
        </Stack>
      </Paper>
      <FileDropZone onFiles={(files) => start(files, fields)} />
      <UploadList uploads={uploads} onCancel={cancel} onClear={clearFinished} />
    </Stack>
  );
}

/** /rawdata/quick-create and /shortcuts (the admin's "+"): the fastest way to drop anything in. */
export function QuickCollectPage() {
  return <ResourceMetaGate kind={rawDataView.kind}>{(meta) => <QuickCollect meta={meta} />}</ResourceMetaGate>;
}
