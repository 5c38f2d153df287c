import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { apiErrorMessage } from '../../api/api-error';
import { useGetUserQuery } from './users.api';
import { formatDateTime } from '../../components/field-format';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { selectSession, useSessionSelector } from '../../lib/session';
import { ResetPasswordPanel } from './ResetPasswordPanel';
import { roleOf } from './user-labels';
import { UserForm } from './UserForm';
import { PageHeading } from '../../components/PageHeading';

/** /users/:id/edit: flags, email and alias; disabling; a new password. */
export function UserEditPage() {
  const { id = '' } = useParams();
  const session = useSessionSelector(selectSession);
  // The form starts from what the server has now, not from a cached copy.
  const { data: user, error, isFetching, refetch } = useGetUserQuery(id, { refetchOnMountOrArgChange: true });

  if (!user || (isFetching && user.id !== id)) {
    if (!error || isFetching) return <LinearProgress aria-label="Loading the user" />;
    if ('status' in error && error.status === 404) {
      return (
        <StatusMessage
          title="User not found"
          actions={
            <Button variant="contained" component={RouterLink} to="/users">
              Back to users
            </Button>
          }
        />
      );
    }
    return <RetryAlert onRetry={() => void refetch()}>{apiErrorMessage(error)}</RetryAlert>;
  }

  const self = user.id === session.id;
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Stack spacing={0.5}>
        <PageHeading>{`Edit ${user.email}`}</PageHeading>
        <Typography color="text.secondary">
          {roleOf(user)}
          {user.disabled ? ' · disabled' : ''} · created {formatDateTime(user.created_at)} ·{' '}
          {user.last_login_at ? `last signed in ${formatDateTime(user.last_login_at)}` : 'never signed in'}
        </Typography>
      </Stack>
      {/* Keyed by the saved state: a save that comes back from the server restarts the form from it. */}
      <UserForm key={`${user.id}-${user.updated_at}`} user={user} />
      <ResetPasswordPanel user={user} self={self} />
    </Stack>
  );
}
