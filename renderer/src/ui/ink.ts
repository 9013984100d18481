/**
 * Coloured text that stays readable (4.5:1) on the page in both schemes: the theme's per-scheme
 * text shade of a colour (see app/theme.ts). Use it instead of "red.8"-style shades, which are
 * too light on white at small sizes.
 */
export const ink = (colour: string) => `var(--cc-${colour}-light-text)`;
