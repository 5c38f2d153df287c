import { useLogoutMutation } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { logout } from './session.slice';

/** Signs out: tells the server to revoke the token, then ends the local session regardless. */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const dispatch = useAppDispatch();
  const [requestLogout, { isLoading }] = useLogoutMutation();
  const signOut = async () => {
    // The local session ends even when the server cannot be told (offline, token already expired).
    await requestLogout().unwrap().catch(() => undefined);
    dispatch(logout('user'));
  };
  return { signOut, signingOut: isLoading };
}
