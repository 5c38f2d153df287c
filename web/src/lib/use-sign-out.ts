import { useDispatch } from 'react-redux';
import { useLogoutMutation } from '../api/api';
import { logout } from './session';

/** Signs out: tells the server to revoke the token, then ends the local session regardless. */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const dispatch = useDispatch();
  const [requestLogout, { isLoading }] = useLogoutMutation();
  const signOut = async () => {
    // The local session ends even when the server cannot be told (offline, token already expired).
    await requestLogout().unwrap().catch(() => undefined);
    dispatch(logout('user'));
  };
  return { signOut, signingOut: isLoading };
}
