import { useCallback, useRef, useState, type RefObject } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../api/api-error';

/**
 * Errors of a hand-built form (one that is not an `EntityForm`): the API's per-field messages,
 * shown under their fields and listed in a summary that takes the focus, or one message when
 * the failure concerns no field.
 */
export function useFormErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  /** Shows an API failure; returns true when it named fields. */
  const showApiError = useCallback((error: unknown): boolean => {
    const next: Record<string, string> = {};
    for (const [name, messages] of Object.entries(apiFieldErrors(error as ApiError))) next[name] = messages.join(' ');
    const hasFields = Object.keys(next).length > 0;
    setErrors(next);
    setFailure(hasFields ? null : apiErrorMessage(error as ApiError));
    requestAnimationFrame(() => summaryRef.current?.focus());
    return hasFields;
  }, []);

  /** Forgets a field's error once its value changes. */
  const clearField = useCallback((name: string) => {
    setErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _dropped, ...rest } = current;
      return rest;
    });
  }, []);

  const reset = useCallback(() => {
    setErrors({});
    setFailure(null);
  }, []);

  return { errors, failure, summaryRef, showApiError, clearField, reset };
}

interface FormErrorSummaryProps {
  errors: Record<string, string>;
  failure: string | null;
  summaryRef: RefObject<HTMLDivElement | null>;
  /** The label of each field, by API field name. */
  labels: Record<string, string>;
  /** The id of each field's input, to move the focus there from the summary. */
  inputId: (name: string) => string;
}

export function FormErrorSummary({ errors, failure, summaryRef, labels, inputId }: FormErrorSummaryProps) {
  const entries = Object.entries(errors);
  if (entries.length === 0 && !failure) return null;
  return (
    <Alert severity="error" ref={summaryRef} tabIndex={-1} role="alert" data-testid="form-errors">
      <AlertTitle>{failure ? 'Could not save' : 'Please correct the following'}</AlertTitle>
      {failure}
      {entries.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {entries.map(([name, message]) => (
            <li key={name}>
              {name in labels ? (
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
                  {labels[name]}
                </Link>
              ) : (
                name
              )}
              : {message}
            </li>
          ))}
        </Box>
      )}
    </Alert>
  );
}
