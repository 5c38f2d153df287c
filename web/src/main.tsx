import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CssBaseline from '@mui/material/CssBaseline';
import LinearProgress from '@mui/material/LinearProgress';
import { ThemeProvider } from '@mui/material/styles';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { ToastContainer } from 'react-toastify';
import { PersistGate } from 'redux-persist/integration/react';
import { recordSections } from './app/record-sections';
import { resourceViews } from './app/resource-views';
import { router, routes } from './app/router';
import { persistor, store } from './app/store';
import { theme } from './app/theme';
import { RecordSectionsProvider } from './lib/record-sections';
import { ResourceViewsProvider } from './lib/resource-views';
import { RouteGroupProvider } from './lib/route-groups';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <PersistGate loading={<LinearProgress aria-label="Restoring session" />} persistor={persistor}>
          <RouteGroupProvider routes={routes}>
            <RecordSectionsProvider sections={recordSections}>
              <ResourceViewsProvider views={resourceViews}>
                <RouterProvider router={router} />
              </ResourceViewsProvider>
            </RecordSectionsProvider>
          </RouteGroupProvider>
        </PersistGate>
        {/* Bottom centre: at the top right they sat over the header's e-mail and Logout and over
            page actions ("New library entry") for 5 s; at the bottom right over the footer's link
            and a table's paging. The middle of a page's foot holds neither. */}
        <ToastContainer position="bottom-center" autoClose={5000} />
      </ThemeProvider>
    </Provider>
  </StrictMode>,
);
