import {
  Badge,
  createTheme,
  darken,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  Drawer,
  Modal,
  Notification,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Dense and legible: a back-office tool shows many rows, so spacing is tight and contrast high.
 * Every colour pairing meets WCAG AA (4.5:1) at the console's small sizes, in both schemes — the
 * end-to-end tests scan every screen with axe in light and dark.
 */

/**
 * Mantine's "light" variant (badges, chips, light buttons) puts shade 6 text on a 10% tint: about
 * 3:1. Ours puts a darkened shade 9 on the colour's lightest shade in the light scheme, and keeps
 * Mantine's (already readable) pairing in the dark one, through per-scheme CSS variables.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return base;
  const { color, isThemeColor } = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!isThemeColor) return base;
  return {
    ...base,
    background: `var(--cc-${color}-light-bg)`,
    hover: `var(--cc-${color}-light-hover)`,
    color: `var(--cc-${color}-light-text)`,
  };
};

export const theme = createTheme({
  primaryColor: 'indigo',
  // Darker shades than Mantine's default 6, so white text on filled buttons and badges is readable.
  primaryShade: { light: 8, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif',
  defaultRadius: 'sm',
  fontSizes: { xs: '12px', sm: '13px', md: '14px', lg: '16px', xl: '18px' },
  variantColorResolver,
  components: {
    // A badge's text as written, not upper-cased: a consumer id keeps its case, words read as words.
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
    // Mantine's close button is an icon without a name; screen readers need one.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    // A notification's message in Mantine's grey is 3.3:1 on white: the readable dimmed text instead.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

const COLOURS = Object.keys(DEFAULT_THEME.colors);

/** The "dimmed" text of each scheme (below), for what cannot read a CSS variable: the charts' canvas. */
export const DIMMED_TEXT = { light: '#555c64', dark: '#a6a7ab' } as const;

/**
 * Mantine's "dimmed" grey is 3.3:1 on white and its placeholders 2:1; ours are darker in the light scheme and lighter in the
 * dark one; so is the red of a field's error (Mantine's is 3.3:1 on white, 3:1 on a dark dialog). The light variant's
 * colours per scheme (see above).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED_TEXT.light,
    '--mantine-color-placeholder': '#6b7178',
    '--mantine-color-error': darken(t.colors.red![9]!, 0.25),
    ...Object.fromEntries(
      COLOURS.flatMap((c) => [
        [`--cc-${c}-light-bg`, t.colors[c]![0]!],
        [`--cc-${c}-light-hover`, t.colors[c]![1]!],
        [`--cc-${c}-light-text`, darken(t.colors[c]![9]!, 0.25)],
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': DIMMED_TEXT.dark,
    '--mantine-color-placeholder': '#9a9b9f',
    '--mantine-color-error': t.colors.red![4]!,
    ...Object.fromEntries(
      COLOURS.flatMap((c) => [
        [`--cc-${c}-light-bg`, `var(--mantine-color-${c}-light)`],
        [`--cc-${c}-light-hover`, `var(--mantine-color-${c}-light-hover)`],
        // Mantine's light-color in the dark scheme is shade 0, nearly white: the status colours were
        // lost in dark mode (issue 34). Shade 3 keeps the hue and 4.5:1 on the dark page and its tints.
        [`--cc-${c}-light-text`, t.colors[c]![3]!],
      ]),
    ),
  },
});
