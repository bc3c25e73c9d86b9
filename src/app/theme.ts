import { createTheme, darken, Modal, ModalHeader, PasswordInput, type CSSVariablesResolver, type ModalHeaderProps } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // WCAG AA (4.5:1) for white on filled buttons and for blue links on white: blue.6 gives 3.5:1,
  // blue.8 gives 5:1.
  primaryShade: { light: 8, dark: 8 },
  // Filled surfaces of a light colour (the yellow offline notice) take dark text: white on
  // yellow.8 gives 2:1.
  autoContrast: true,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // A dialog's close button says what it does, and its header is no second page banner
    // (Mantine renders a <header>, a banner landmark outside <main>).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    // `component` is passed on to the header's element, though ModalHeader's props do not list it.
    ModalHeader: ModalHeader.extend({ defaultProps: { component: 'div' } as Partial<ModalHeaderProps> }),
    // Showing the password is for everyone: Mantine leaves the eye out of the Tab order (WCAG 2.1.1).
    PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleFocusable: true } }),
  },
});

/**
 * Text at WCAG AA (4.5:1) wherever the app puts it: on white, on the tables' light grey, and on
 * the light variants' tints, hovered too. Mantine's defaults fall short: dimmed text (gray.6)
 * 3.3:1 on white; field errors (red.6) 3.3:1; green text (green.8) 3.5:1; the light variants'
 * text (shade 9) on their hover tint (shade 2), 3.4–4.0:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const ink = (color: 'blue' | 'green' | 'red') => darken(t.colors[color][9]!, 0.2); // 4.9–5.5:1 on shade 2
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': t.colors.gray[7]!,
      '--mantine-color-error': t.colors.red[9]!, // 5.5:1 on white
      '--mantine-color-red-text': t.colors.red[9]!, // 5.2:1 on gray.0
      '--mantine-color-green-text': ink('green'), // 6.3:1 on white
      '--mantine-color-blue-light-color': ink('blue'),
      '--mantine-color-green-light-color': ink('green'),
      '--mantine-color-red-light-color': ink('red'),
    },
    dark: {},
  };
};
