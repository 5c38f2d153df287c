import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './NotFoundPage';
import { StatusMessage } from './StatusMessage';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return 'Something went wrong while showing this page.';
}

/** Route error element: a page that threw, or a failed route load. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <StatusMessage
      title="Unexpected Application Error!"
      actions={
        <>
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
          {/* A plain link: the router state may be what failed. */}
          <Button variant="outlined" color="inherit" href="/">
            Go to the home page
          </Button>
        </>
      }
    >
      <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {describe(error)}
      </Typography>
    </StatusMessage>
  );
}
