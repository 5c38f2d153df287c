import Stack from '@mui/material/Stack';
import { UserForm } from './UserForm';
import { PageHeading } from '../../components/PageHeading';

/** /users/create */
export function UserCreatePage() {
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <PageHeading>New user</PageHeading>
      <UserForm />
    </Stack>
  );
}
