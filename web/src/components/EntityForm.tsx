import { useCallback, useId, useImperativeHandle, useMemo, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/LockOutlined';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { FieldMeta, FieldSection, RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors, apiItemErrors, type ApiError, type ItemError } from '../api/api-error';
import {
  useAvailableFiltersQuery,
  useCreateResourceMutation,
  useUpdateResourceMutation,
  type ResourceRecord,
} from '../api/resources';
import { FieldValue } from './FieldValue';
import { changedBody, initialValues, isEmptyValue, LIST_KINDS, type FormValue, type FormValues } from './form-values';
import { incompleteDateProblem, IncompleteDateField } from './IncompleteDateField';
import { MultiValueField } from './MultiValueField';
import { notify } from './notify';
import { numberProblem, NumberField } from './NumberField';
import { refName, RelationField } from './RelationField';
import { afterFormPath, canWriteField, fieldLabel, toastName, useAccessLevel, visibleFields, writersOf, type ResourceView } from './resource-view';
import { VisibilityField } from './VisibilityField';
import { choiceMenuItems } from './choice-menu-items';
import { formatItem } from './field-format';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

/** What a feature's extra form controls (e.g. suggestions from a URL) may read and change. */
export interface EntityFormApi {
  values: FormValues;
  setValues: (update: (values: FormValues) => FormValues) => void;
}

/** What a page around the form may ask of it (e.g. the review page: save the edits, then accept). */
export interface EntityFormHandle {
  /** Saves the changes, if any, as Save does (checked first); the saved record, or null when the form shows problems instead. */
  saveChanges(): Promise<ResourceRecord | null>;
  /** Lets the page leave without asking about unsaved changes (what the form edits is gone, e.g. rejected). */
  release(): void;
}

interface EntityFormProps {
  meta: ResourceMeta;
  view: ResourceView;
  /** The record being edited; absent when creating one. */
  record?: ResourceRecord;
  /** Controls shown above the fields. */
  renderBeforeFields?: (form: EntityFormApi) => ReactNode;
  /** Values a new record gets besides the form's, for fields the view omits (e.g. the ledger entry an investment is added to). */
  createWith?: Record<string, unknown>;
  /** Called with the saved record instead of opening its page (a form in a dialog). */
  onSaved?: (record: ResourceRecord) => void;
  /** Called by Cancel instead of leaving for the record's or the list's page. */
  onCancel?: () => void;
  /** Where the record is saved, when not at the resource's own path (a suggestion: suggested-entities/…). */
  savePath?: string;
  /** Filled with the form's handle, for a page that saves it from its own buttons. */
  handle?: Ref<EntityFormHandle>;
}

const INPUT_MODES: Record<string, 'email' | 'tel' | 'url' | 'text'> = { emails: 'email', phones: 'tel', urls: 'url' };

/** A list field's first refused item (the API names it by position), with the value at that position. */
function listItemError(items: string[], refused: ItemError[] | undefined): { index: number; value: string; message: string } | null {
  const item = refused?.[0];
  const value = item ? items[item.index] : undefined;
  return item && value !== undefined ? { index: item.index, value, message: item.message } : null;
}

/** The form's sections in order (the server puts each field in one); visibility and sharing last. */
const SECTION_TITLES: Record<FieldSection, string> = {
  identity: 'Identity',
  contact: 'Contact',
  dates: 'Dates',
  details: 'Details',
  sharing: 'Visibility and sharing',
};

/** Fields that take the whole width of the form. */
function isWide(field: FieldMeta): boolean {
  const kind = field.kind;
  return (
    field.multiline ||
    LIST_KINDS.includes(kind) ||
    kind === 'visibility' ||
    kind === 'incomplete_date' ||
    kind === 'date' ||
    (kind === 'relation' && (field.relation?.many ?? true))
  );
}

/**
 * A field shown but not editable here: its value in a dashed outline with the label on the
 * border (as the inputs beside it have theirs), and why it cannot be changed.
 */
function ReadOnlyField({ id, label, field, value, reason }: { id: string; label: string; field: FieldMeta; value: unknown; reason: string }) {
  return (
    <Box role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-reason`} data-readonly-field={field.name}>
      <Box
        id={id}
        tabIndex={-1}
        sx={{
          position: 'relative',
          minHeight: 56,
          px: 1.75,
          py: 1.25,
          display: 'flex',
          alignItems: 'center',
          border: 1,
          borderStyle: 'dashed',
          borderColor: 'text.disabled',
          borderRadius: 1,
        }}
      >
        <Typography
          id={`${id}-label`}
          variant="caption"
          color="text.secondary"
          sx={{ position: 'absolute', top: 0, left: 8, transform: 'translateY(-50%)', px: 0.5, lineHeight: 1, bgcolor: 'background.paper' }}
        >
          {label}
        </Typography>
        <FieldValue field={field} value={value} />
      </Box>
      <FormHelperText id={`${id}-reason`} sx={{ mx: 1.75, display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <LockIcon sx={{ fontSize: 14 }} aria-hidden="true" />
        {reason}
      </FormHelperText>
    </Box>
  );
}

/**
 * Creates or edits a record of any resource: one input per field of the metadata (JSON object
 * fields excepted). Errors from the API appear on their fields and in a summary; an edit
 * sends only the fields that changed. On success: a toast, then the record's page.
 */
export function EntityForm({ meta, view, record, renderBeforeFields, createWith, onSaved, onCancel, savePath, handle }: EntityFormProps) {
  const formId = useId();
  const navigate = useNavigate();
  const access = useAccessLevel();
  // Fields the user cannot change: left out of a new record; shown as they are on an edit
  // (values the server sets, immutable ones once set, and those only higher access levels may write).
  const readOnlyReason = useCallback(
    (field: FieldMeta): string | null => {
      if (field.read_only) return 'Set automatically.';
      if (!canWriteField(field, access)) return `Only ${writersOf(field)} can change this.`;
      if (record && field.immutable) return 'Set when created; it cannot be changed.';
      return null;
    },
    [access, record],
  );
  const shown = useMemo(
    () => visibleFields(meta, view, access).filter((field) => record || readOnlyReason(field) === null),
    [meta, view, access, record, readOnlyReason],
  );
  const fields = useMemo(() => shown.filter((field) => readOnlyReason(field) === null), [shown, readOnlyReason]);
  const initial = useMemo(() => initialValues(fields, record), [fields, record]);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The refused items of list fields, by position, as the API reported them with `errors`.
  const [itemErrors, setItemErrors] = useState<Record<string, ItemError[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The summary lists problems once saving was tried; before that they show on their fields only.
  const [attempted, setAttempted] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const done = useRef(false);
  const [create, createState] = useCreateResourceMutation();
  const [update, updateState] = useUpdateResourceMutation();
  const saving = createState.isLoading || updateState.isLoading;
  const categoryValues = useAvailableFiltersQuery(meta.path).data?.filters;

  const dirty = Object.keys(changedBody(fields, initial, values)).length > 0;

  const label = (name: string) => fieldLabel(view, name);
  const inputId = (name: string) => `${formId}-${name}`;
  const setValue = (name: string, value: FormValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _dropped, ...rest }) => rest);
  };

  const showErrors = (next: Record<string, string>, message: string | null, items: Record<string, ItemError[]> = {}) => {
    setErrors(next);
    setItemErrors(items);
    setFailure(message);
    // Moves the reader to the summary, which lists every problem.
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const clientErrors = (): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const field of fields) {
      const value = values[field.name];
      if (field.required && isEmptyValue(value)) {
        found[field.name] = field.kind === 'relation' && (field.relation?.many ?? true) ? 'Choose at least one.' : 'This field is required.';
        continue;
      }
      const problem =
        field.kind === 'incomplete_date' || field.kind === 'date'
          ? incompleteDateProblem(String(value ?? ''), field.kind === 'date')
          : field.kind === 'integer' || field.kind === 'decimal'
            ? numberProblem(field, String(value ?? ''))
            : null;
      if (problem) found[field.name] = problem;
    }
    const names = meta.name_fields.filter((name) => name in values);
    if (names.length > 0 && names.every((name) => isEmptyValue(values[name]))) {
      found[names[0]!] = `Enter at least one of: ${names.map(label).join(', ')}.`;
    }
    return found;
  };

  /** Checks and saves the form: the saved record and whether anything changed, or null when problems are shown instead. */
  const save = async (): Promise<{ saved: ResourceRecord; changed: boolean } | null> => {
    setAttempted(true);
    const found = clientErrors();
    if (Object.keys(found).length > 0) {
      showErrors(found, null);
      return null;
    }
    const body = changedBody(fields, initial, values);
    if (record && Object.keys(body).length === 0) return { saved: record, changed: false };
    const path = savePath ?? meta.path;
    try {
      const saved = record
        ? await update({ path, id: record.id, body }).unwrap()
        : await create({ path, body: { ...createWith, ...body } }).unwrap();
      notify.success(`${toastName(meta, saved)} ${record ? 'saved' : 'created'}.`);
      return { saved, changed: true };
    } catch (error) {
      const fieldErrors = apiFieldErrors(error as ApiError);
      const message = apiErrorMessage(error as ApiError);
      const next: Record<string, string> = {};
      for (const [name, messages] of Object.entries(fieldErrors)) next[name] = messages.join(' ');
      const hasFieldErrors = Object.keys(next).length > 0;
      notify.error(`Could not save the ${meta.label.toLowerCase()}: ${hasFieldErrors ? 'please correct the highlighted fields.' : message}`);
      showErrors(next, hasFieldErrors ? null : message, apiItemErrors(error as ApiError));
      return null;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save();
    if (!result) return;
    if (!result.changed) notify.info('Nothing changed.');
    done.current = true;
    if (onSaved) onSaved(result.saved);
    else navigate(afterFormPath(view, result.saved.id));
  };

  useImperativeHandle(handle, () => ({
    saveChanges: async () => {
      const result = await save();
      if (result) done.current = true;
      return result?.saved ?? null;
    },
    release: () => {
      done.current = true;
    },
  }));

  const errorEntries = Object.entries(errors);
  /** A field's error as shown, naming the bad value of a list rather than its position. */
  const message = (name: string): string | undefined => {
    const error = errors[name];
    const value = values[name];
    const item = error && Array.isArray(value) ? listItemError(value.map((entry) => (typeof entry === 'string' ? entry : refName(entry))), itemErrors[name]) : null;
    return item ? `“${item.value}”: ${item.message}` : error;
  };
  const api: EntityFormApi = { values, setValues };

  const renderField = (field: FieldMeta) => {
    const name = field.name;
    const kind = field.kind;
    const reason = readOnlyReason(field);
    if (reason) return <ReadOnlyField id={inputId(name)} label={label(name)} field={field} value={record?.[name]} reason={reason} />;
    const value = values[name] ?? '';
    const error = message(name);
    const required = field.required;
    const common = { id: inputId(name), label: label(name), error: Boolean(error), fullWidth: true, required };

    switch (kind) {
      case 'relation':
        return (
          <RelationField
            id={inputId(name)}
            label={label(name)}
            field={field}
            value={typeof value === 'object' ? (value as RelatedRef[] | RelatedRef | null) : null}
            onChange={(next) => setValue(name, next)}
            error={error}
            required={required}
          />
        );
      case 'integer':
      case 'decimal':
        return (
          <NumberField
            id={inputId(name)}
            label={label(name)}
            field={field}
            value={String(value)}
            onChange={(next) => setValue(name, next)}
            onCheck={(problem) => setErrors(({ [name]: _dropped, ...rest }) => (problem ? { ...rest, [name]: problem } : rest))}
            error={error}
            required={required}
          />
        );
      case 'visibility':
        return <VisibilityField id={inputId(name)} label={label(name)} value={String(value)} onChange={(next) => setValue(name, next)} error={error} />;
      case 'boolean':
        return (
          <FormControl error={Boolean(error)}>
            <FormControlLabel
              control={<Switch id={inputId(name)} checked={Boolean(value)} onChange={(event) => setValue(name, event.target.checked)} />}
              label={label(name)}
            />
            {error && <FormHelperText>{error}</FormHelperText>}
          </FormControl>
        );
      case 'incomplete_date':
      case 'date':
        return (
          <IncompleteDateField
            id={inputId(name)}
            label={label(name)}
            value={String(value)}
            onChange={(next) => setValue(name, next)}
            error={error}
            required={required}
            complete={kind === 'date'}
          />
        );
      case 'emails':
      case 'phones':
      case 'urls':
      case 'strings': {
        const items = value as string[];
        return (
          <MultiValueField
            id={inputId(name)}
            label={label(name)}
            values={items}
            onChange={(next) => setValue(name, next)}
            error={error}
            invalidIndex={errors[name] ? listItemError(items, itemErrors[name])?.index : undefined}
            inputMode={INPUT_MODES[kind] ?? 'text'}
            required={required}
            formatValue={(item) => formatItem(kind, item)}
          />
        );
      }
      case 'choice':
        return (
          <TextField {...common} select value={String(value)} onChange={(event) => setValue(name, event.target.value)} helperText={error}>
            {choiceMenuItems(field)}
          </TextField>
        );
      case 'category': {
        const options = (categoryValues?.find((filter) => filter.name === name)?.values ?? []).map((entry) => String(entry.value));
        return (
          <Autocomplete<string, false, false, true>
            freeSolo
            options={options}
            value={String(value)}
            inputValue={String(value)}
            onInputChange={(_event, text) => setValue(name, text)}
            onChange={(_event, next) => setValue(name, next ?? '')}
            renderInput={(params) => (
              <TextField
                {...params}
                {...common}
                helperText={error ?? (options.length > 0 ? 'Type a new value or pick an existing one.' : undefined)}
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, maxLength: field.max_length ?? undefined } }}
              />
            )}
          />
        );
      }
      default: {
        const text = String(value);
        const counter = field.multiline && field.max_length ? `${text.length.toLocaleString('en-GB')} / ${field.max_length.toLocaleString('en-GB')}` : undefined;
        return (
          <TextField
            {...common}
            value={text}
            onChange={(event) => setValue(name, event.target.value)}
            multiline={field.multiline}
            minRows={field.multiline ? 4 : undefined}
            helperText={error ?? counter}
            slotProps={{ htmlInput: { maxLength: field.max_length ?? undefined } }}
          />
        );
      }
    }
  };

  // The fields by section, in the sections' order; a section without fields is left out.
  const sections = (Object.keys(SECTION_TITLES) as FieldSection[])
    .map((section): [FieldSection, FieldMeta[]] => [
      section,
      // The visibility leads its section, the curators' flags follow it.
      shown.filter((field) => (field.section ?? 'details') === section).sort((a, b) => Number(b.kind === 'visibility') - Number(a.kind === 'visibility')),
    ])
    .filter(([, sectionFields]) => sectionFields.length > 0);
  const cancelTo = afterFormPath(view, record?.id);
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label={record ? `Edit ${meta.label.toLowerCase()}` : `New ${meta.label.toLowerCase()}`}>
      <Stack spacing={3}>
        {((attempted && errorEntries.length > 0) || failure) && (
          <Alert severity="error" ref={summaryRef} tabIndex={-1} role="alert" data-testid="form-errors">
            <AlertTitle>{failure ? 'Could not save' : 'Please correct the following'}</AlertTitle>
            {failure}
            {errorEntries.length > 0 && (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {errorEntries.map(([name]) => (
                  <li key={name}>
                    {name in values ? (
                      <Link
                        href={`#${inputId(name)}`}
                        color="inherit"
                        underline="always"
                        onClick={(event) => {
                          event.preventDefault();
                          const target = document.getElementById(inputId(name));
                          target?.scrollIntoView({ block: 'center' });
                          target?.focus();
                        }}
                      >
                        {label(name)}
                      </Link>
                    ) : (
                      label(name)
                    )}
                    : {message(name)}
                  </li>
                ))}
              </Box>
            )}
          </Alert>
        )}
        {renderBeforeFields?.(api)}
        {sections.map(([section, sectionFields]) => (
          <Paper
            key={section}
            variant="outlined"
            component="section"
            aria-labelledby={sections.length > 1 ? `${formId}-section-${section}` : undefined}
            data-section={section}
            sx={{ p: { xs: 2, sm: 3 } }}
          >
            {sections.length > 1 && (
              <Typography id={`${formId}-section-${section}`} variant="h6" component="h2" sx={{ fontWeight: 700, mb: 2.5 }}>
                {SECTION_TITLES[section]}
              </Typography>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, gap: 3 }}>
              {sectionFields.map((field) => (
                <Box key={field.name} sx={{ gridColumn: isWide(field) ? '1 / -1' : undefined, minWidth: 0 }}>
                  {renderField(field)}
                </Box>
              ))}
            </Box>
          </Paper>
        ))}
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          {onCancel ? (
            <Button onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
          ) : (
            <Button component={RouterLink} to={cancelTo} disabled={saving}>
              Cancel
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving…' : record ? 'Save changes' : `Create ${meta.label.toLowerCase()}`}
          </Button>
        </Stack>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} saved={done} what={`this ${meta.label.toLowerCase()}`} />
    </Box>
  );
}
