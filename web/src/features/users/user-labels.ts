import type { User } from '@intelnotes/server/contracts';

export const userEditPath = (id: string) => `/users/${encodeURIComponent(id)}/edit`;

/** The access a user's flags give (SPEC §4): admin above research above a paywall reader. */
export function roleOf(user: Pick<User, 'is_admin' | 'is_research'>): 'Admin' | 'Research' | 'Reader' {
  if (user.is_admin) return 'Admin';
  if (user.is_research) return 'Research';
  return 'Reader';
}

/** Labels of the user fields, by API name (form labels and the error summary). */
export const USER_LABELS: Record<string, string> = {
  email: 'Email',
  alias: 'Alias',
  password: 'Password',
  is_admin: 'Admin',
  is_research: 'Research',
  disabled: 'Disabled',
};
