import './app/styles';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { InsecureConnectionScreen } from './app/InsecureConnectionScreen';
import { keepFocusOnBusyButtons } from './app/busy-button-focus';
import { followPageHeading } from './app/page-heading';
import { cssVariablesResolver, theme } from './app/theme';

followPageHeading();
keepFocusOnBusyButtons();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {window.isSecureContext ? <App /> : <InsecureConnectionScreen />}
    </MantineProvider>
  </StrictMode>,
);
