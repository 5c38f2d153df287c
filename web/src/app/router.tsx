import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { LoginPage } from '../features/auth/LoginPage';
import { HomePage } from '../features/home/HomePage';
import { RootLayout } from './layout/RootLayout';

export const router = createBrowserRouter([
  {
    path: '/',
    element: <RootLayout />,
    // Used only when the shell itself fails; page errors render inside the shell below.
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'login', element: <LoginPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
