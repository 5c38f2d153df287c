import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UserForm } from './UserForm';

/** /users/create */
export function UserCreatePage() {
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        New user
      </Typography>
      <UserForm />
    </Stack>
  );
}
