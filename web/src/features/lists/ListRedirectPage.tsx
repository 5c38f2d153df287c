import { useEffect } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { apiErrorMessage } from '../../api/api-error';
import { useGetResourceQuery } from '../../api/resources';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { listPagePath } from './list-kinds';

/**
 * lists/:id — where the shared form leads after saving a list (records are addressed by id
 * there): replaced at once by the list's own page, /lists/{kind}/{slug}.
 */
export function ListRedirectPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, error, isFetching, refetch } = useGetResourceQuery({ path: '/lists', id }, { refetchOnMountOrArgChange: true });

  useEffect(() => {
    if (data && !isFetching) navigate(listPagePath(data), { replace: true });
  }, [data, isFetching, navigate]);

  if (error && 'status' in error && error.status === 404) {
    return (
      <StatusMessage
        title="List not found"
        actions={
          <Button variant="contained" component={RouterLink} to="/lists?tab=1">
            Back to lists
          </Button>
        }
      >
        <Typography color="text.secondary">It may have been deleted, or you may not have access to it.</Typography>
      </StatusMessage>
    );
  }
  if (error) return <RetryAlert onRetry={() => refetch()}>{apiErrorMessage(error)}</RetryAlert>;
  return <LinearProgress aria-label="Opening the list" />;
}
